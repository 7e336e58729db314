package org.apache.storm.daemon.worker;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Collectors;
import org.apache.storm.StormTimer;
import org.apache.storm.daemon.worker.BackPressureTracker.BackpressureState;
import org.apache.storm.executor.ExecutorShutdown;
import org.apache.storm.executor.IRunningExecutor;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.metrics2.TaskMetricDimensions;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.utils.TransferDrainer;
import org.apache.storm.utils.Utils;

/**
 * Every non-public member of Storm that nonstop migration reaches, in one place, each with the type it
 * must have: when the Storm version changes, this is the class to check and fix. The members are looked
 * up once; {@link #problems(String)} (run by the agent at start-up) lists every one that is missing or
 * has another type, and migration stays off in that JVM if any is. Package-private fields of
 * {@link WorkerState} are read directly by the worker runtime (this class shares its package) and are
 * checked here too; final ones are only replaced through reflection, once, when the worker state is
 * built.
 */
public final class NonstopInternals {
    private NonstopInternals() {
    }

    /**
     * Missing or changed members for a role ({@code worker}, {@code supervisor}, {@code nimbus}); empty
     * when all are as expected. Loads (does not initialise) the Storm classes concerned.
     */
    public static List<String> problems(String role) {
        return switch (role) {
            case "worker" -> WorkerMembers.LOOKUP.problems;
            case "nimbus" -> NimbusMembers.LOOKUP.problems;
            default -> List.of();
        };
    }

    /** Collects lookup failures instead of throwing, so one check reports all of them. */
    static final class Lookup {
        final List<String> problems = new ArrayList<>();

        Field field(Class<?> owner, String name, Class<?> type) {
            try {
                Field f = owner.getDeclaredField(name);
                if (f.getType() != type) {
                    problems.add("field " + owner.getName() + "." + name + " is " + f.getType().getName()
                                 + ", expected " + type.getName());
                    return null;
                }
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException | RuntimeException | LinkageError e) {
                problems.add("field " + owner.getName() + "." + name + " (" + type.getSimpleName() + ") missing");
                return null;
            }
        }

        /** A field the runtime reads directly (linked by the JVM), checked for presence and type only. */
        void direct(Class<?> owner, String name, Class<?> type) {
            field(owner, name, type);
        }

        Method method(Class<?> owner, String name, Class<?>... parameters) {
            try {
                Method m = owner.getDeclaredMethod(name, parameters);
                m.setAccessible(true);
                return m;
            } catch (NoSuchMethodException | RuntimeException | LinkageError e) {
                problems.add("method " + owner.getName() + "." + name + "("
                             + Arrays.stream(parameters).map(Class::getSimpleName).collect(Collectors.joining(", "))
                             + ") missing");
                return null;
            }
        }

        Class<?> type(String name) {
            try {
                return Class.forName(name, false, NonstopInternals.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                problems.add("class " + name + " missing");
                return null;
            }
        }
    }

    /** The worker's members (storm-client). */
    private static final class WorkerMembers {
        static final Lookup LOOKUP = new Lookup();
        static final Field WS_LOCAL_EXECUTORS = LOOKUP.field(WorkerState.class, "localExecutors", Set.class);
        static final Field WS_LOCAL_TASK_IDS = LOOKUP.field(WorkerState.class, "localTaskIds", ArrayList.class);
        static final Field WS_LOCAL_RECEIVE_QUEUES = LOOKUP.field(WorkerState.class, "localReceiveQueues", Map.class);
        static final Field WS_EXECUTOR_RECEIVE_QUEUE_MAP =
            LOOKUP.field(WorkerState.class, "executorReceiveQueueMap", Map.class);
        static final Field WS_TASK_TO_EXECUTOR_QUEUE = LOOKUP.field(WorkerState.class, "taskToExecutorQueue", Map.class);
        static final Field WS_OUTBOUND_TASKS = LOOKUP.field(WorkerState.class, "outboundTasks", Set.class);
        static final Field WS_BP_TRACKER = LOOKUP.field(WorkerState.class, "bpTracker", BackPressureTracker.class);
        static final Field BPT_TASKS = LOOKUP.field(BackPressureTracker.class, "tasks", Map.class);
        static final Field W_EXECUTORS_ATOM = LOOKUP.field(Worker.class, "executorsAtom", AtomicReference.class);
        static final Field W_TRANSFER_THREAD = LOOKUP.field(Worker.class, "transferThread", Thread.class);
        static final Field W_WORKER_STATE = LOOKUP.field(Worker.class, "workerState", WorkerState.class);
        static final Field ES_THREADS = LOOKUP.field(ExecutorShutdown.class, "threads", List.class);
        static final String[] TASK_MAP_NAMES = {"taskIdGauges", "taskIdMeters", "taskIdCounters", "taskIdTimers",
            "taskIdHistograms"};
        static final List<Field> SMR_TASK_MAPS = new ArrayList<>();
        static final Field SMR_RATE_COUNTERS = LOOKUP.field(StormMetricRegistry.class, "rateCounters", Set.class);
        static final Field SMR_TASK_METRICS = LOOKUP.field(StormMetricRegistry.class, "taskMetrics", ConcurrentMap.class);
        static final Field TMD_TASK_ID = LOOKUP.field(TaskMetricDimensions.class, "taskId", int.class);
        /** Netty's receive path, which the self-routed messages of a flush take too. */
        static final Method WS_TRANSFER_LOCAL_BATCH =
            LOOKUP.method(WorkerState.class, "transferLocalBatch", ArrayList.class);

        static {
            for (String name : TASK_MAP_NAMES) {
                SMR_TASK_MAPS.add(LOOKUP.field(StormMetricRegistry.class, name, ConcurrentMap.class));
            }
            LOOKUP.direct(WorkerState.class, "conf", Map.class);
            LOOKUP.direct(WorkerState.class, "topologyId", String.class);
            LOOKUP.direct(WorkerState.class, "assignmentId", String.class);
            LOOKUP.direct(WorkerState.class, "port", int.class);
            LOOKUP.direct(WorkerState.class, "cachedTaskToNodePort", AtomicReference.class);
            LOOKUP.direct(WorkerState.class, "cachedNodeToPortSocket", AtomicReference.class);
            LOOKUP.direct(WorkerState.class, "backPressureCheckTimer", StormTimer.class);
            LOOKUP.direct(WorkerState.class, "endpointSocketLock", ReentrantReadWriteLock.class);
            // Read by the advice on TransferDrainer.send (WorkerAdvice.RemoteSend).
            LOOKUP.direct(TransferDrainer.class, "bundles", Map.class);
        }
    }

    /** Nimbus's members (storm-server: only on Nimbus's classpath). */
    private static final class NimbusMembers {
        static final Lookup LOOKUP = new Lookup();
        static final Class<?> NIMBUS = LOOKUP.type("org.apache.storm.daemon.nimbus.Nimbus");
        static final Field CONF = NIMBUS == null ? null : LOOKUP.field(NIMBUS, "conf", Map.class);
        static final Field TIMER = NIMBUS == null ? null : LOOKUP.field(NIMBUS, "timer", StormTimer.class);
        static final Method MK_ASSIGNMENTS = NIMBUS == null ? null : LOOKUP.method(NIMBUS, "mkAssignments");
        static final Field TIMER_TASK = LOOKUP.field(StormTimer.class, "task", StormTimer.StormTimerTask.class);
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

    // ------------------------------------------------------------------ worker

    static void setLocalExecutors(WorkerState ws, Set<List<Long>> v) {
        set(WorkerMembers.WS_LOCAL_EXECUTORS, ws, v);
    }

    static void setLocalTaskIds(WorkerState ws, LocalTaskList v) {
        set(WorkerMembers.WS_LOCAL_TASK_IDS, ws, v);
    }

    static LocalTaskList localTaskIds(WorkerState ws) {
        return (LocalTaskList) ws.localTaskIds;
    }

    static void setLocalReceiveQueues(WorkerState ws, Map<Integer, ?> v) {
        set(WorkerMembers.WS_LOCAL_RECEIVE_QUEUES, ws, v);
    }

    static void setExecutorReceiveQueueMap(WorkerState ws, Map<List<Long>, ?> v) {
        set(WorkerMembers.WS_EXECUTOR_RECEIVE_QUEUE_MAP, ws, v);
    }

    static void setTaskToExecutorQueue(WorkerState ws, Map<Integer, ?> v) {
        set(WorkerMembers.WS_TASK_TO_EXECUTOR_QUEUE, ws, v);
    }

    @SuppressWarnings("unchecked")
    static Set<Integer> outboundTasks(WorkerState ws) {
        return (Set<Integer>) get(WorkerMembers.WS_OUTBOUND_TASKS, ws);
    }

    static void setOutboundTasks(WorkerState ws, Set<Integer> v) {
        set(WorkerMembers.WS_OUTBOUND_TASKS, ws, v);
    }

    static BackPressureTracker bpTracker(WorkerState ws) {
        return (BackPressureTracker) get(WorkerMembers.WS_BP_TRACKER, ws);
    }

    @SuppressWarnings("unchecked")
    static Map<Integer, BackpressureState> bpTasks(BackPressureTracker t) {
        return (Map<Integer, BackpressureState>) get(WorkerMembers.BPT_TASKS, t);
    }

    static void setBpTasks(BackPressureTracker t, Map<Integer, BackpressureState> v) {
        set(WorkerMembers.BPT_TASKS, t, v);
    }

    @SuppressWarnings("unchecked")
    static AtomicReference<List<IRunningExecutor>> executorsAtom(Worker w) {
        return (AtomicReference<List<IRunningExecutor>>) get(WorkerMembers.W_EXECUTORS_ATOM, w);
    }

    static Thread transferThread(Worker w) {
        return (Thread) get(WorkerMembers.W_TRANSFER_THREAD, w);
    }

    static void setTransferThread(Worker w, Thread t) {
        set(WorkerMembers.W_TRANSFER_THREAD, w, t);
    }

    static WorkerState workerState(Worker w) {
        return (WorkerState) get(WorkerMembers.W_WORKER_STATE, w);
    }

    @SuppressWarnings("unchecked")
    static List<Utils.SmartThread> threads(ExecutorShutdown es) {
        return (List<Utils.SmartThread>) get(WorkerMembers.ES_THREADS, es);
    }

    /** StormMetricRegistry's per-task maps (gauges, meters, counters, timers, histograms). */
    static List<Map<?, ?>> taskMetricMaps(StormMetricRegistry registry) {
        List<Map<?, ?>> out = new ArrayList<>();
        for (Field f : WorkerMembers.SMR_TASK_MAPS) {
            out.add((Map<?, ?>) get(f, registry));
        }
        return out;
    }

    static Set<?> rateCounters(StormMetricRegistry registry) {
        return (Set<?>) get(WorkerMembers.SMR_RATE_COUNTERS, registry);
    }

    static Map<?, ?> taskMetrics(StormMetricRegistry registry) {
        return (Map<?, ?>) get(WorkerMembers.SMR_TASK_METRICS, registry);
    }

    static int taskIdOf(TaskMetricDimensions dimensions) {
        try {
            return WorkerMembers.TMD_TASK_ID.getInt(dimensions);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Storm's private transferLocalBatch: delivers tuples to this worker's receive queues. */
    static void transferLocalBatch(WorkerState ws, ArrayList<AddressedTuple> batch) {
        try {
            WorkerMembers.WS_TRANSFER_LOCAL_BATCH.invoke(ws, batch);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    // ------------------------------------------------------------------ nimbus

    @SuppressWarnings("unchecked")
    public static Map<String, Object> nimbusConf(Object nimbus) {
        return (Map<String, Object>) get(NimbusMembers.CONF, nimbus);
    }

    public static StormTimer nimbusTimer(Object nimbus) {
        return (StormTimer) get(NimbusMembers.TIMER, nimbus);
    }

    public static Thread timerThread(StormTimer timer) {
        return (Thread) get(NimbusMembers.TIMER_TASK, timer);
    }

    /** Nimbus's private mkAssignments(): one scheduling round. */
    public static void mkAssignments(Object nimbus) throws InvocationTargetException {
        try {
            NimbusMembers.MK_ASSIGNMENTS.invoke(nimbus);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
