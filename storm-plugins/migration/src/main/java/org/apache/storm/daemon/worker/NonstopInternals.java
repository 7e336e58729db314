package org.apache.storm.daemon.worker;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.daemon.worker.BackPressureTracker.BackpressureState;
import org.apache.storm.executor.ExecutorShutdown;
import org.apache.storm.executor.IRunningExecutor;
import org.apache.storm.utils.Utils;

/**
 * Every private member of Storm 2.8.3 that nonstop migration reaches, in one place: when the Storm
 * version changes, this is the class to check. Package-private fields of {@link WorkerState} are read
 * directly (this class shares its package); final ones are only replaced through reflection, once, when
 * the worker state is built.
 */
final class NonstopInternals {
    private static final Field WS_LOCAL_EXECUTORS = field(WorkerState.class, "localExecutors");
    private static final Field WS_LOCAL_TASK_IDS = field(WorkerState.class, "localTaskIds");
    private static final Field WS_LOCAL_RECEIVE_QUEUES = field(WorkerState.class, "localReceiveQueues");
    private static final Field WS_EXECUTOR_RECEIVE_QUEUE_MAP = field(WorkerState.class, "executorReceiveQueueMap");
    private static final Field WS_TASK_TO_EXECUTOR_QUEUE = field(WorkerState.class, "taskToExecutorQueue");
    private static final Field WS_OUTBOUND_TASKS = field(WorkerState.class, "outboundTasks");
    private static final Field WS_BP_TRACKER = field(WorkerState.class, "bpTracker");
    private static final Field BPT_TASKS = field(BackPressureTracker.class, "tasks");
    private static final Field W_EXECUTORS_ATOM = field(Worker.class, "executorsAtom");
    private static final Field W_TRANSFER_THREAD = field(Worker.class, "transferThread");
    private static final Field W_WORKER_STATE = field(Worker.class, "workerState");
    private static final Field ES_THREADS = field(ExecutorShutdown.class, "threads");

    private NonstopInternals() {
    }

    /** Forces the field lookups; throws if this Storm build lacks one of them. */
    static void check() {
        // The static initialiser has run by now; nothing else to do.
    }

    private static Field field(Class<?> owner, String name) {
        try {
            Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("Storm internals differ from 2.8.3: " + owner.getName() + "." + name
                                            + " is missing", e);
        }
    }

    private static Object get(Field f, Object target) {
        try {
            return f.get(target);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void set(Field f, Object target, Object value) {
        try {
            f.set(target, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot replace " + f, e);
        }
    }

    static void setLocalExecutors(WorkerState ws, Set<List<Long>> v) {
        set(WS_LOCAL_EXECUTORS, ws, v);
    }

    static void setLocalTaskIds(WorkerState ws, LocalTaskList v) {
        set(WS_LOCAL_TASK_IDS, ws, v);
    }

    static LocalTaskList localTaskIds(WorkerState ws) {
        return (LocalTaskList) ws.localTaskIds;
    }

    static void setLocalReceiveQueues(WorkerState ws, Map<Integer, ?> v) {
        set(WS_LOCAL_RECEIVE_QUEUES, ws, v);
    }

    static void setExecutorReceiveQueueMap(WorkerState ws, Map<List<Long>, ?> v) {
        set(WS_EXECUTOR_RECEIVE_QUEUE_MAP, ws, v);
    }

    static void setTaskToExecutorQueue(WorkerState ws, Map<Integer, ?> v) {
        set(WS_TASK_TO_EXECUTOR_QUEUE, ws, v);
    }

    @SuppressWarnings("unchecked")
    static Set<Integer> outboundTasks(WorkerState ws) {
        return (Set<Integer>) get(WS_OUTBOUND_TASKS, ws);
    }

    static void setOutboundTasks(WorkerState ws, Set<Integer> v) {
        set(WS_OUTBOUND_TASKS, ws, v);
    }

    static BackPressureTracker bpTracker(WorkerState ws) {
        return (BackPressureTracker) get(WS_BP_TRACKER, ws);
    }

    @SuppressWarnings("unchecked")
    static Map<Integer, BackpressureState> bpTasks(BackPressureTracker t) {
        return (Map<Integer, BackpressureState>) get(BPT_TASKS, t);
    }

    static void setBpTasks(BackPressureTracker t, Map<Integer, BackpressureState> v) {
        set(BPT_TASKS, t, v);
    }

    @SuppressWarnings("unchecked")
    static AtomicReference<List<IRunningExecutor>> executorsAtom(Worker w) {
        return (AtomicReference<List<IRunningExecutor>>) get(W_EXECUTORS_ATOM, w);
    }

    static Thread transferThread(Worker w) {
        return (Thread) get(W_TRANSFER_THREAD, w);
    }

    static void setTransferThread(Worker w, Thread t) {
        set(W_TRANSFER_THREAD, w, t);
    }

    static WorkerState workerState(Worker w) {
        return (WorkerState) get(W_WORKER_STATE, w);
    }

    @SuppressWarnings("unchecked")
    static List<Utils.SmartThread> threads(ExecutorShutdown es) {
        return (List<Utils.SmartThread>) get(ES_THREADS, es);
    }
}
