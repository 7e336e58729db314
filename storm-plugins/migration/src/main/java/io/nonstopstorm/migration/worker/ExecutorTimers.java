package io.nonstopstorm.migration.worker;

import io.nonstopstorm.migration.verify.AgentStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes the recurring timers an executor schedules (tick tuples, metrics ticks) removable. Storm puts
 * them on the worker's shared user timer with no way to cancel them; a stopped executor's ticks would
 * pile up in a queue nobody drains until the shared timer blocks. While an executor initialises (that
 * is where Storm schedules them, on the executor's own thread) every recurring task is wrapped; when
 * the executor is stopped its wrappers are cancelled: the next firing does nothing and tells the timer
 * not to reschedule it, so the timer entry disappears.
 */
public final class ExecutorTimers {
    private static final ThreadLocal<Object> INITIALISING = new ThreadLocal<>();
    private static final ThreadLocal<boolean[]> DROP_NEXT_SCHEDULE = ThreadLocal.withInitial(() -> new boolean[1]);
    private static final Map<Object, List<Cancellable>> BY_OWNER = new HashMap<>();

    private ExecutorTimers() {
    }

    /** The current thread starts initialising the executor {@code owner}. */
    public static void beginInit(Object owner) {
        if (!AgentStatus.on()) {
            return; // stock Storm: nothing is wrapped
        }
        INITIALISING.set(owner);
    }

    public static void endInit() {
        INITIALISING.remove();
    }

    /** Wraps {@code task} if it is being scheduled by an initialising executor; otherwise returns it. */
    public static Runnable wrap(Runnable task) {
        Object owner = INITIALISING.get();
        if (owner == null || task instanceof Cancellable) {
            return task;
        }
        Cancellable c = new Cancellable(task);
        synchronized (BY_OWNER) {
            BY_OWNER.computeIfAbsent(owner, k -> new ArrayList<>()).add(c);
        }
        return c;
    }

    /** Cancels every recurring task {@code owner} scheduled; returns how many. */
    public static int cancel(Object owner) {
        List<Cancellable> tasks;
        synchronized (BY_OWNER) {
            tasks = BY_OWNER.remove(owner);
        }
        if (tasks == null) {
            return 0;
        }
        tasks.forEach(Cancellable::cancel);
        return tasks.size();
    }

    /** Number of owners with live recurring tasks (for tests and diagnostics). */
    public static int owners() {
        synchronized (BY_OWNER) {
            return BY_OWNER.size();
        }
    }

    /**
     * True exactly once after a cancelled task fired on this thread: the timer's following
     * "schedule me again" call must be skipped.
     */
    public static boolean consumeDropFlag() {
        boolean[] flag = DROP_NEXT_SCHEDULE.get();
        if (flag[0]) {
            flag[0] = false;
            return true;
        }
        return false;
    }

    static final class Cancellable implements Runnable {
        private final Runnable task;
        private volatile boolean cancelled;

        Cancellable(Runnable task) {
            this.task = task;
        }

        void cancel() {
            cancelled = true;
        }

        @Override
        public void run() {
            if (cancelled) {
                DROP_NEXT_SCHEDULE.get()[0] = true;
                return;
            }
            task.run();
        }
    }
}
