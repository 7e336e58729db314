package io.nonstopstorm.metrics.core;

import java.util.Collection;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicLong;
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
 */
public final class TaskCounters {
    private final int taskId;
    private final String component;
    private final AtomicLongArray toTask;
    private final AtomicLong emitted = new AtomicLong();
    private final AtomicLong executed = new AtomicLong();
    private volatile Thread emitter;
    private volatile boolean sharedEmits;

    /** @param maxTaskId the largest task id in the topology (destinations beyond it are not counted) */
    public TaskCounters(int taskId, String component, int maxTaskId) {
        this.taskId = taskId;
        this.component = component;
        this.toTask = new AtomicLongArray(maxTaskId + 1);
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
        if (single) {
            emitted.lazySet(emitted.get() + 1);
        } else {
            emitted.incrementAndGet();
        }
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
        executed.lazySet(executed.get() + 1);
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
        if (dst >= 0 && dst < toTask.length()) {
            if (single) {
                toTask.lazySet(dst, toTask.get(dst) + 1);
            } else {
                toTask.incrementAndGet(dst);
            }
        }
    }

    public long emitted() {
        return emitted.get();
    }

    public long executed() {
        return executed.get();
    }

    /** Tuples sent so far to {@code dst}. */
    public long sentTo(int dst) {
        return dst >= 0 && dst < toTask.length() ? toTask.get(dst) : 0;
    }

    public int destinationSlots() {
        return toTask.length();
    }
}
