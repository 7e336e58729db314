package io.nonstopstorm.grouping.signal;

/**
 * Opens the signal path of one stream edge. Storm adapters name a provider class (public, no-arg
 * constructor) in their constructor arguments and open the path on the first tuple; the channel name
 * identifies the edge ({@code <source component>:<stream> -> <target component>}). The delegation
 * policy travels with it so the worker side of the same path applies the thresholds and time slot the
 * topology configured on the grouping.
 */
public interface LoadSignalsProvider {

    LoadSignals open(String channel, DelegationPolicy policy);

    /**
     * Opens the path with everything known about the edge. Providers that only need the channel and the
     * policy keep this default; providers that read the workers' load reports override it.
     */
    default LoadSignals open(SignalEdge edge) {
        return open(edge.channel(), edge.policy());
    }
}
