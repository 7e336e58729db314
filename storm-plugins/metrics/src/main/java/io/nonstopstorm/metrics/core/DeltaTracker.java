package io.nonstopstorm.metrics.core;

import java.util.HashMap;
import java.util.Map;

/**
 * Turns cumulative readings (CPU times, tuple counters, byte counters) into per-window deltas.
 * The first call only sets the baseline. Afterwards a key not seen at the previous call appeared within
 * the window (a thread, task or process started since), so with {@code newKeysStartAtZero} its whole
 * value counts; otherwise it is baselined like the first call. A reading below the previous one means the
 * source restarted: its whole value counts.
 */
public final class DeltaTracker<K> {
    private final boolean newKeysStartAtZero;
    private Map<K, Long> previous;

    public DeltaTracker(boolean newKeysStartAtZero) {
        this.newKeysStartAtZero = newKeysStartAtZero;
    }

    public boolean hasBaseline() {
        return previous != null;
    }

    /** Deltas since the previous call (empty on the first call); keys absent from {@code current} are forgotten. */
    public Map<K, Long> update(Map<K, Long> current) {
        Map<K, Long> out = new HashMap<>();
        if (previous != null) {
            for (Map.Entry<K, Long> e : current.entrySet()) {
                Long before = previous.get(e.getKey());
                long now = e.getValue();
                if (before == null) {
                    if (newKeysStartAtZero) {
                        out.put(e.getKey(), now);
                    }
                } else {
                    out.put(e.getKey(), now >= before ? now - before : now);
                }
            }
        }
        previous = new HashMap<>(current);
        return out;
    }
}
