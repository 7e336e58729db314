package io.nonstopstorm.metrics.core;

import java.util.Collection;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Cumulative tuple counts of one source task: emits, executes, and tuples sent to each destination task.
 * Written on the hot path, read by the sampler every window, so lock-free and without allocation per
 * tuple: destinations index a dense array sized by the topology's task ids.
 *
 * <p>Storm 2 output collectors are single-threaded, so one thread emits for a task (the executor thread,
 * or a ShellBolt's reader thread) and one executes (the executor thread). That thread counts with plain
 * read + release-store, no atomic read-modify-write. Should a second thread ever emit for the task, all
 * emits switch to atomic increments from then on (a count racing with the switch itself may be lost).
 *
 * <p>All counters of a task live in one array padded at both ends: the tasks of a worker are set up one
 * after the other, so separately allocated counters of different executors would sit on the same cache
 * lines and every count would bounce a line between cores (false sharing, measured at ~10 % of a
 * flat-out topology's CPU).
 */
public final class TaskCounters {
    private final int taskId;
    private final String component;
    /** Longs of padding: two 64-byte lines, since CPUs prefetch lines in adjacent pairs. */
    private static final int PAD = 16;
    private static final int EMITTED = PAD;
    private static final int EXECUTED = PAD + 1;
    private static final int EXECUTE_SAMPLES = PAD + 2;
    private static final int EXECUTE_SAMPLE_MS = PAD + 3;
    private static final int FIRST_DST = PAD + 4;

    private final int destinations;
    private final AtomicLongArray cells;
    private volatile Thread emitter;
    private volatile boolean sharedEmits;

    /** @param maxTaskId the largest task id in the topology (destinations beyond it are not counted) */
    public TaskCounters(int taskId, String component, int maxTaskId) {
        this.taskId = taskId;
        this.component = component;
        this.destinations = maxTaskId + 1;
        this.cells = new AtomicLongArray(FIRST_DST + destinations + PAD);
    }

    public int taskId() {
        return taskId;
    }

    public String component() {
        return component;
    }

    /** One emit of a user stream that Storm routed to {@code outTasks}. */
    public void countEmit(Collection<Integer> outTasks) {
        boolean single = !sharedEmits && isEmitter();
        bump(EMITTED, single);
        if (outTasks instanceof List<Integer> list && outTasks instanceof RandomAccess) {
            for (int i = 0, n = list.size(); i < n; i++) {
                countTo(list.get(i), single);
            }
        } else {
            for (Integer t : outTasks) {
                countTo(t, single);
            }
        }
    }

    /** One executed user tuple; Storm calls this on the executor thread only. */
    public void countExecuted() {
        bump(EXECUTED, true);
    }

    /**
     * One executed user tuple whose execute time Storm sampled ({@code topology.stats.sample.rate}), in
     * whole milliseconds of the wall clock: summed over many samples the truncation averages out. Storm
     * calls this on the executor thread only.
     */
    public void countExecuteSample(long latencyMs) {
        if (latencyMs >= 0) {
            cells.lazySet(EXECUTE_SAMPLES, cells.get(EXECUTE_SAMPLES) + 1);
            cells.lazySet(EXECUTE_SAMPLE_MS, cells.get(EXECUTE_SAMPLE_MS) + latencyMs);
        }
    }

    private boolean isEmitter() {
        Thread me = Thread.currentThread();
        Thread owner = emitter;
        if (owner == me) {
            return true;
        }
        if (owner == null) {
            synchronized (this) {
                if (emitter == null) {
                    emitter = me;
                    return true;
                }
            }
        }
        sharedEmits = true;
        return false;
    }

    private void countTo(int dst, boolean single) {
        if (dst >= 0 && dst < destinations) {
            bump(FIRST_DST + dst, single);
        }
    }

    private void bump(int cell, boolean single) {
        if (single) {
            cells.lazySet(cell, cells.get(cell) + 1);
        } else {
            cells.incrementAndGet(cell);
        }
    }

    public long emitted() {
        return cells.get(EMITTED);
    }

    public long executed() {
        return cells.get(EXECUTED);
    }

    public long executeSamples() {
        return cells.get(EXECUTE_SAMPLES);
    }

    public long executeSampleMs() {
        return cells.get(EXECUTE_SAMPLE_MS);
    }

    /** Tuples sent so far to {@code dst}. */
    public long sentTo(int dst) {
        return dst >= 0 && dst < destinations ? cells.get(FIRST_DST + dst) : 0;
    }

    public int destinationSlots() {
        return destinations;
    }
}
