package io.nonstopstorm.grouping.signal;

/**
 * Opens the signal path of one stream edge. Storm adapters name a provider class (public, no-arg
 * constructor) in their constructor arguments and open the path in {@code prepare}; the channel name
 * identifies the edge ({@code <source component>:<stream> -> <target component>}). The delegation
 * policy travels with it so the worker side of the same path applies the thresholds and time slot the
 * topology configured on the grouping.
 */
public interface LoadSignalsProvider {

    LoadSignals open(String channel, DelegationPolicy policy);
}
