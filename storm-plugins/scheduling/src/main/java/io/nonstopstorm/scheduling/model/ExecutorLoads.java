package io.nonstopstorm.scheduling.model;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU load per executor, in the same unit as {@link Node#cpuCapacity()} (Hz for the Aniello schedulers).
 * Executors without a measurement count as 0.
 */
public record ExecutorLoads(Map<ExecutorId, Double> values) {

    private static final ExecutorLoads NONE = new ExecutorLoads(Map.of());

    public ExecutorLoads {
        for (Map.Entry<ExecutorId, Double> e : values.entrySet()) {
            if (e.getValue() == null || e.getValue() < 0 || e.getValue().isNaN()) {
                throw new IllegalArgumentException("load of executor " + e.getKey() + " must be >= 0, got " + e.getValue());
            }
        }
        values = Map.copyOf(values);
    }

    public static ExecutorLoads none() {
        return NONE;
    }

    public static ExecutorLoads of(Map<ExecutorId, Double> values) {
        return new ExecutorLoads(new TreeMap<>(values));
    }

    public double of(ExecutorId e) {
        return values.getOrDefault(e, 0.0);
    }

    public double sum(Collection<ExecutorId> executors) {
        double s = 0;
        for (ExecutorId e : executors) {
            s += of(e);
        }
        return s;
    }
}
