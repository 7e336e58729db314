package io.nonstopstorm.migration.state;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * When each task's handed-over state is measured again (docs/state-handoff.md, F2: the scheduler refuses a
 * move of a state over the limit before the routing switches, from the size the worker last published). A
 * measurement serialises the state on the executor's own thread, so its cost is bounded: the next one comes
 * no sooner than the interval, and no sooner than {@value #COST_FACTOR} times the last one's duration (a
 * state that takes 200 ms to serialise is measured every 20 s at most: 1 % of that executor's time).
 * Thread-safe; time is given, not read.
 */
public final class StateSizeProbe {
    /** A measurement takes at most 1 / COST_FACTOR of the executor's time. */
    public static final long COST_FACTOR = 100;

    private final long intervalMs;
    private final Map<Integer, Long> nextAtMs = new HashMap<>();
    private final Set<Integer> never = new HashSet<>();

    /** @param intervalMs the shortest time between two measurements of one task; must be positive */
    public StateSizeProbe(long intervalMs) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("the probe interval must be > 0 ms, got " + intervalMs);
        }
        this.intervalMs = intervalMs;
    }

    /** The tasks among {@code tasks} due for a measurement at {@code nowMs}; a task never measured is due. */
    public synchronized List<Integer> due(Collection<Integer> tasks, long nowMs) {
        List<Integer> out = new ArrayList<>();
        for (int t : tasks) {
            if (!never.contains(t) && nowMs >= nextAtMs.getOrDefault(t, Long.MIN_VALUE)) {
                out.add(t);
            }
        }
        return out;
    }

    /** A measurement of {@code task} ended at {@code atMs} after {@code tookMs}. */
    public synchronized void measured(int task, long atMs, long tookMs) {
        long gap = gapMs(intervalMs, tookMs);
        nextAtMs.put(task, gap > Long.MAX_VALUE - atMs ? Long.MAX_VALUE : atMs + gap);
    }

    /** The task's state cannot be measured here (e.g. it lives in a multilang subprocess): never due again. */
    public synchronized void never(int task) {
        never.add(task);
        nextAtMs.remove(task);
    }

    /** The time from one measurement's end to the next. */
    public static long gapMs(long intervalMs, long tookMs) {
        long costBound = Math.max(0, tookMs) >= Long.MAX_VALUE / COST_FACTOR ? Long.MAX_VALUE
            : Math.max(0, tookMs) * COST_FACTOR;
        return Math.max(intervalMs, costBound);
    }
}
