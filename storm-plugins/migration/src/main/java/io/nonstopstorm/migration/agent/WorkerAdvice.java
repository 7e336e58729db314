package io.nonstopstorm.migration.agent;

import io.nonstopstorm.migration.verify.AgentStatus;
import io.nonstopstorm.migration.worker.ExecutorTimers;
import io.nonstopstorm.migration.worker.RoutingEpoch;
import io.nonstopstorm.migration.worker.LocalRoutes;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import net.bytebuddy.asm.Advice;
import org.apache.storm.assignments.ILocalAssignmentsBackend;
import org.apache.storm.daemon.Task;
import org.apache.storm.daemon.worker.NonstopWorkerRuntime;
import org.apache.storm.daemon.worker.StateHandoffs;
import org.apache.storm.daemon.worker.Worker;
import org.apache.storm.daemon.worker.WorkerState;
import org.apache.storm.executor.Executor;
import org.apache.storm.executor.IRunningExecutor;
import org.apache.storm.generated.Assignment;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.utils.JCQueue;

/**
 * ByteBuddy advice woven into Storm's worker classes. Each piece only hands over to
 * {@link NonstopWorkerRuntime} (or a small helper), which does nothing unless migration is enabled.
 * The code here is inlined into Storm's methods, so it must stay tiny and reach only public types.
 */
final class WorkerAdvice {
    private WorkerAdvice() {
    }

    /** WorkerState constructor. */
    static final class StateCreated {
        @Advice.OnMethodExit
        static void exit(@Advice.This WorkerState self) {
            NonstopWorkerRuntime.onWorkerStateCreated(self);
        }
    }

    /** WorkerState.suicideIfLocalAssignmentsChanged(Assignment): reconcile instead of exiting. */
    static final class AssignmentCheck {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This WorkerState self, @Advice.Argument(0) Assignment assignment) {
            return NonstopWorkerRuntime.onAssignmentCheck(self, assignment);
        }
    }

    /** LocalAssignmentsBackendFactory.getDefault(): without re-reading the configuration from disk. */
    static final class AssignmentsBackend {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static ILocalAssignmentsBackend enter() {
            return NonstopWorkerRuntime.defaultAssignmentsBackend();
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter ILocalAssignmentsBackend made,
                         @Advice.Return(readOnly = false) ILocalAssignmentsBackend returned) {
            if (made != null) {
                returned = made;
            }
        }
    }

    /** WorkerState.refreshConnections(). */
    static final class Refresh {
        @Advice.OnMethodEnter
        static boolean enter(@Advice.This WorkerState self) {
            return NonstopWorkerRuntime.beforeRefreshConnections(self);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit(@Advice.This WorkerState self, @Advice.Enter boolean locked) {
            NonstopWorkerRuntime.afterRefreshConnections(self, locked);
        }
    }

    /** WorkerState.getLocalAssignment(IStormClusterState, String): a ZooKeeper outage keeps the last read. */
    static final class AssignmentRead {
        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit(@Advice.This WorkerState self,
                         @Advice.Return(readOnly = false) Assignment returned,
                         @Advice.Thrown(readOnly = false) Throwable thrown) {
            Assignment kept = NonstopWorkerRuntime.afterAssignmentRead(self, returned, thrown);
            if (kept != null) {
                returned = kept;
                thrown = null;
            }
        }
    }

    /** WorkerState.refreshStormActive(Runnable): a ZooKeeper outage is ridden out, not fatal. */
    static final class StormActive {
        @Advice.OnMethodExit(onThrowable = RuntimeException.class)
        static void exit(@Advice.This WorkerState self, @Advice.Thrown(readOnly = false) Throwable thrown) {
            thrown = NonstopWorkerRuntime.afterStatusPoll(self, thrown);
        }
    }

    /** WorkerState.transferLocalBatch(ArrayList): Netty's receive path. */
    static final class LocalBatch {
        @Advice.OnMethodEnter
        static boolean enter(@Advice.This WorkerState self, @Advice.Argument(0) ArrayList<AddressedTuple> batch) {
            return NonstopWorkerRuntime.beforeLocalBatch(self, batch);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit(@Advice.Enter boolean locked) {
            NonstopWorkerRuntime.afterLocalBatch(locked);
        }
    }

    /**
     * TransferDrainer.send(Map, Map): the worker's outbound flush, under Storm's endpoint lock. Messages
     * for tasks the routing now maps to this worker itself are delivered locally, not dropped.
     */
    static final class RemoteSend {
        @Advice.OnMethodEnter
        static void enter(@Advice.FieldValue("bundles") Map<Integer, ArrayList<TaskMessage>> bundles,
                          @Advice.Argument(0) Map<Integer, NodeInfo> taskToNode,
                          @Advice.Argument(1) Map<NodeInfo, IConnection> connections) {
            NonstopWorkerRuntime.beforeRemoteSend(bundles, taskToNode, connections);
        }
    }

    /** Worker.loadWorker(...). */
    static final class Loaded {
        @Advice.OnMethodExit
        static void exit(@Advice.This Worker self) {
            NonstopWorkerRuntime.onWorkerLoaded(self);
        }
    }

    /** Worker.setupFlushTupleTimer(Map, List). */
    static final class FlushTimer {
        @Advice.OnMethodEnter
        static void enter(@Advice.This Worker self,
                          @Advice.Argument(value = 1, readOnly = false) List<IRunningExecutor> executors) {
            executors = NonstopWorkerRuntime.flushTargets(self, executors);
        }
    }

    /** Worker.setupBackPressureCheckTimer(Map). */
    static final class BackPressureTimer {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.FieldValue("workerState") WorkerState state,
                             @Advice.Argument(0) Map<String, Object> topologyConf) {
            return NonstopWorkerRuntime.startBackPressureCheck(state, topologyConf);
        }
    }

    /** Worker.shutdown(). */
    static final class Shutdown {
        @Advice.OnMethodEnter
        static void enter(@Advice.This Worker self) {
            NonstopWorkerRuntime.onShutdown(self);
        }
    }

    /**
     * ExecutorTransfer.tryTransfer(AddressedTuple, Queue): rebuild this executor's view of the local
     * queues when the worker's local executors changed. Runs on the executor's own thread.
     */
    static final class TransferRoutes {
        @Advice.OnMethodEnter
        static void enter(@Advice.FieldValue(value = AgentFields.EPOCH, readOnly = false) int seen,
                          @Advice.FieldValue("workerData") WorkerState workerData,
                          @Advice.FieldValue(value = "localReceiveQueues", readOnly = false) ArrayList<JCQueue> queues,
                          @Advice.FieldValue(value = "indexingBase", readOnly = false) int base,
                          @Advice.FieldValue(value = "queuesToFlush", readOnly = false) AtomicReferenceArray<JCQueue> toFlush) {
            int now = RoutingEpoch.current();
            if (seen != now && queues != null && AgentStatus.on()) {
                LocalRoutes<JCQueue> r = LocalRoutes.rebuild(workerData.getLocalReceiveQueues(), queues, base, toFlush);
                for (JCQueue q : r.orphaned()) {
                    q.tryFlush();
                }
                queues = r.queues();
                base = r.base();
                toFlush = r.toFlush();
                seen = now;
            }
        }
    }

    /** BoltExecutor.init / SpoutExecutor.init: where an executor schedules its recurring ticks. */
    static final class ExecutorInit {
        @Advice.OnMethodEnter
        static void enter(@Advice.This Executor self) {
            ExecutorTimers.beginInit(ExecutorId.fromStorm(self.getExecutorId()));
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit() {
            ExecutorTimers.endInit();
        }
    }

    /** BoltExecutor.init: which of its tasks opt in to state handoff. */
    static final class BoltInit {
        @Advice.OnMethodExit
        static void exit(@Advice.This Executor self, @Advice.Argument(0) ArrayList<Task> idToTask) {
            StateHandoffs.onBoltInit(idToTask, self.getTopoConf());
        }
    }

    /** BoltExecutor.tupleActionFn(int, TupleImpl): state handoff's barrier, gate and messages. */
    static final class BoltTuple {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This Executor self, @Advice.FieldValue("idToTask") ArrayList<Task> idToTask,
                             @Advice.FieldValue("idToTaskBase") int idToTaskBase, @Advice.Argument(0) int taskId,
                             @Advice.Argument(1) TupleImpl tuple) throws Exception {
            return StateHandoffs.intercept(self, idToTask, idToTaskBase, taskId, tuple);
        }
    }

    /**
     * ShellBolt.die / ShellSpout.die: once the component was cleaned up (the executor was stopped by a
     * migration), its reader thread sees the killed child's pipe break; Storm would then report the error
     * through the stopped executor and the failure would take the whole worker down.
     */
    static final class ShellDie {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.FieldValue("running") boolean running) {
            return !running && NonstopWorkerRuntime.isActive();
        }
    }

    /** StormTimer.scheduleRecurring(int, int, Runnable). */
    static final class RecurringTimer {
        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(value = 2, readOnly = false) Runnable task) {
            task = ExecutorTimers.wrap(task);
        }
    }

    /** StormTimer.scheduleMs(long, Runnable, boolean, int): skip the re-scheduling of a cancelled task. */
    static final class TimerSchedule {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter() {
            return ExecutorTimers.consumeDropFlag();
        }
    }
}
