package io.nonstopstorm.grouping.signal;

import java.util.List;

/**
 * A path that carries nothing. With it CG keeps its initial, even VW assignment: PoRC over VWs, which
 * balances skew but not heterogeneity. The default in Storm until a real signal path is deployed.
 */
public final class NoLoadSignals implements LoadSignals, LoadSignalsProvider {
    public static final NoLoadSignals INSTANCE = new NoLoadSignals();

    @Override
    public void publish(int worker, LoadSignal signal) {
        // dropped on purpose
    }

    @Override
    public List<WorkerSignal> poll(int source) {
        return List.of();
    }

    @Override
    public LoadSignals open(String channel, DelegationPolicy policy) {
        return INSTANCE;
    }
}
