package io.nonstopstorm.migration.worker;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Tasks that recently moved away from this worker. Tuples that still reach the worker for them (peers
 * that have not switched yet, or the old executor's leftovers) are forwarded to the task's new home
 * instead of being lost; after {@code ttlMs} they are simply dropped (the acker replays them). Only a
 * worker that hosted a task forwards it, so two workers can never bounce a tuple between them for longer
 * than the time-to-live.
 */
public final class RetiredTasks {
    private final Map<Integer, Long> expiry = new ConcurrentHashMap<>();
    private final long ttlMs;
    private final LongSupplier clockMs;

    public RetiredTasks(long ttlMs, LongSupplier clockMs) {
        this.ttlMs = ttlMs;
        this.clockMs = clockMs;
    }

    public void retire(int task) {
        expiry.put(task, clockMs.getAsLong() + ttlMs);
    }

    /** The task is hosted here again. */
    public void restore(int task) {
        expiry.remove(task);
    }

    public boolean shouldForward(int task) {
        Long until = expiry.get(task);
        return until != null && clockMs.getAsLong() <= until;
    }

    /** Live retired tasks; expired ones are forgotten on the way. */
    public Set<Integer> live() {
        long now = clockMs.getAsLong();
        expiry.entrySet().removeIf(e -> e.getValue() < now);
        return Set.copyOf(expiry.keySet());
    }
}
