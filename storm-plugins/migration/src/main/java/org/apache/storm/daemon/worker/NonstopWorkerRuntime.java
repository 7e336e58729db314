package org.apache.storm.daemon.worker;

import io.nonstopstorm.migration.config.MigrationSettings;
import io.nonstopstorm.migration.plan.AssignmentFingerprint;
import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.plan.PlanFormatException;
import io.nonstopstorm.migration.plan.PlanStore;
import io.nonstopstorm.migration.plan.PortPlan;
import io.nonstopstorm.migration.reconcile.DesiredExecutors;
import io.nonstopstorm.migration.verify.AgentStatus;
import io.nonstopstorm.migration.verify.VerificationReport;
import io.nonstopstorm.migration.worker.FailureBudget;
import io.nonstopstorm.migration.worker.LastKnownAssignment;
import io.nonstopstorm.migration.worker.LogFlush;
import io.nonstopstorm.migration.worker.LoggedTask;
import io.nonstopstorm.migration.worker.LiveList;
import io.nonstopstorm.migration.state.HandoffLimits;
import io.nonstopstorm.migration.worker.MigrationEventLog;
import io.nonstopstorm.migration.worker.Once;
import io.nonstopstorm.migration.worker.ParkedTuples;
import io.nonstopstorm.migration.worker.PlanWatcher;
import io.nonstopstorm.migration.worker.RetiredTasks;
import io.nonstopstorm.migration.worker.TupleSizeEstimate;
import io.nonstopstorm.migration.worker.ZkOutage;
import io.nonstopstorm.wire.ExecutorId;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import org.apache.storm.Config;
import org.apache.storm.assignments.ILocalAssignmentsBackend;
import org.apache.storm.assignments.InMemoryAssignmentBackend;
import org.apache.storm.executor.IRunningExecutor;
import org.apache.storm.generated.Assignment;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.serialization.KryoTupleDeserializer;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.utils.ConfigUtils;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker half of nonstop migration. The agent's advice calls the static entry points; everything
 * else is this worker's state. A worker never exits because its executors changed: it follows its
 * node's plan store instead, starting and stopping single executors.
 *
 * <p>A change flows like this: the plan watcher sees a new plan version and asks Storm's
 * connection-refresh timer to run now; inside {@code refreshConnections} the assignment check (where
 * Storm would exit) reconciles the executors; when the refresh has opened connections to the new
 * homes, local senders are switched over (routing epoch); removed executors keep draining for D_K
 * and are then shut down: {@link LiveMoves} runs each executor's move.
 */
public final class NonstopWorkerRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(NonstopWorkerRuntime.class);
    /** How long tuples for a task that left are still forwarded to its new home. */
    private static final long FORWARD_TTL_MS = 60_000;
    /** How long tuples for a task that is not (yet) local wait for its executor. */
    private static final long PARK_TTL_MS = 15_000;
    private static final int PARK_CAPACITY = 100_000;
    /** Failures in a row of attach or reconcile after which the worker exits (Storm relaunches it). */
    private static final int ATTEMPTS = 3;
    private static final long RETRY_DELAY_MS = 1000;
    /** Test only: every reconcile that changes executors fails, to exercise the exit path. */
    public static final String TEST_FAIL_RECONCILE = "nonstop.migration.test.fail.reconcile";
    /** Test only: milliseconds the routing switch waits before it begins. */
    public static final String TEST_SWITCH_DELAY_MS = "nonstop.migration.test.switch.delay.ms";
    /**
     * Test only: milliseconds an arrival holds the worker's outbound flushes before its routing epoch, until
     * the connection refresh ends, so that what local senders queue for it on the remote path meanwhile is
     * flushed only once the refresh maps it to this worker.
     */
    public static final String TEST_ARRIVAL_HOLD_MS = "nonstop.migration.test.arrival.hold.ms";
    /** Test only: milliseconds a worker waits before it takes in the tasks moving in (their gates, executors). */
    public static final String TEST_TAKE_IN_DELAY_MS = "nonstop.migration.test.take.in.delay.ms";
    /** The one clock of a worker's migration path (the agent's first event comes before the runtime exists). */
    private static final LongSupplier WALL_CLOCK = System::currentTimeMillis;
    private static volatile NonstopWorkerRuntime instance;

    private final WorkerState ws;
    private final MigrationSettings settings;
    private final PlanStore store;
    private final MigrationEventLog events;
    private final LongSupplier clock;
    private final RetiredTasks retired;
    private final ParkedTuples<AddressedTuple> parked;
    private final TupleForwarder forwarder;
    private final SelfDelivery selfDelivery;
    private final ZkOutage zkOutage;
    private final LastKnownAssignment<Assignment> lastAssignment = new LastKnownAssignment<>();
    private final FailureBudget reconcileFailures = new FailureBudget(ATTEMPTS);
    /** Storm runs refreshConnections on its timer; the plan watcher runs it too, never at the same time. */
    private final ReentrantLock refreshLock = new ReentrantLock();
    /** Held by Netty's delivery (read) and by changes to the receive queues (write). */
    private final ReentrantReadWriteLock deliveryLock = new ReentrantReadWriteLock();
    private final ScheduledExecutorService scheduler;
    private final LiveMoves moveSet;
    /** State handoff (null: off, or its configuration was refused). */
    private final StateHandoffs handoffs;
    private volatile Worker worker;
    private volatile PlanWatcher watcher;
    /** What of the plan concerns this worker, to ignore versions that change only other ports. */
    private volatile String lastRelevant = "";
    /** The last stale plan store this worker said it passed over (said once, not every refresh). */
    private volatile String lastStaleIgnored = "";

    private NonstopWorkerRuntime(WorkerState ws, MigrationSettings settings, LongSupplier clock) {
        this.ws = ws;
        this.settings = settings;
        this.clock = clock;
        this.store = new PlanStore(settings.planFile(), clock);
        this.events = new MigrationEventLog(settings.planDir().resolve("worker-" + ws.port + ".events.jsonl"),
                                            clock, settings.eventsMaxBytes());
        this.retired = new RetiredTasks(FORWARD_TTL_MS, clock);
        this.zkOutage = new ZkOutage(clock);
        this.parked = new ParkedTuples<>(PARK_TTL_MS, PARK_CAPACITY, settings.parkedMaxBytes(),
                                         t -> TupleSizeEstimate.of(t.getTuple().getValues()));
        this.forwarder = new TupleForwarder(ws, retired, parked, clock);
        this.selfDelivery = selfDelivery(ws, deliveryLock.readLock(), parked, forwarder, events, clock);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "nonstop-reconciler");
            t.setDaemon(true);
            return t;
        });
        this.handoffs = handoffs(ws, events, clock, scheduler);
        this.moveSet = new LiveMoves(ws, settings, events, clock, parked, scheduler, handoffs);
    }

    /** State handoff as the topology's conf sets it; a malformed setting turns it off, said once. */
    private static StateHandoffs handoffs(WorkerState ws, MigrationEventLog events, LongSupplier clock,
                                          ScheduledExecutorService scheduler) {
        try {
            if (!HandoffLimits.enabled(ws.getTopologyConf())) {
                return null;
            }
            return new StateHandoffs(ws, HandoffLimits.fromConf(ws.getTopologyConf()), events, clock, scheduler);
        } catch (IllegalArgumentException | ArithmeticException e) {
            LOG.error("nonstop: state handoff off for {}: {}", ws.topologyId, e.getMessage());
            return null;
        }
    }

    /** Self-routed messages of a flush go back through Storm's own receive path, with this worker's advice. */
    private static SelfDelivery selfDelivery(WorkerState ws, Lock deliveryRead,
                                             ParkedTuples<AddressedTuple> parked, TupleForwarder forwarder,
                                             MigrationEventLog events, LongSupplier clock) {
        // Only the transfer thread flushes; a thread-local deserializer keeps that assumption harmless.
        ThreadLocal<KryoTupleDeserializer> deserializer = ThreadLocal.withInitial(
            () -> new KryoTupleDeserializer(ws.getTopologyConf(), ws.getWorkerTopologyContext()));
        return new SelfDelivery(new NodeInfo(ws.assignmentId, Set.of((long) ws.port)),
                                m -> new AddressedTuple(m.task(), deserializer.get().deserialize(m.message())),
                                ws.taskToExecutorQueue::containsKey,
                                batch -> NonstopInternals.transferLocalBatch(ws, batch), deliveryRead, parked,
                                forwarder::countDropped, events, clock);
    }

    // ------------------------------------------------------------------ entry points (agent advice)

    /** End of the WorkerState constructor: make the executor-related collections safe to change. */
    public static void onWorkerStateCreated(WorkerState ws) {
        try {
            if (ConfigUtils.isLocalMode(ws.conf)) {
                return;
            }
            MigrationSettings s = MigrationSettings.fromConf(ws.conf, Path.of(ConfigUtils.absoluteStormLocalDir(ws.conf)));
            if (!s.enabled()) {
                LOG.info("nonstop: migration disabled ({}=false); stock worker behaviour", MigrationSettings.ENABLED);
                return;
            }
            VerificationReport report = AgentStatus.resolve(ws.conf);
            if (report != null) {
                new MigrationEventLog(s.planDir().resolve("worker-" + ws.port + ".events.jsonl"), WALL_CLOCK,
                                      s.eventsMaxBytes())
                    .append("agent", report.fields(ManagementFactory.getRuntimeMXBean().getName(),
                                                   WALL_CLOCK.getAsLong()));
            }
            if (!AgentStatus.on()) {
                return; // the ERROR line names what is missing; Storm runs this worker stock
            }
            makeConcurrent(ws);
            NonstopWorkerRuntime rt = new NonstopWorkerRuntime(ws, s, WALL_CLOCK);
            instance = rt;
            if (rt.handoffs != null && rt.handoffs.resumeWaiting() > 0) {
                // Before the executors start: their first tuples must meet the gates again (F1's retry).
                StateHandoffs.activate(rt.handoffs);
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.error("nonstop: migration support could not start; this worker behaves like stock Storm", e);
            instance = null;
        }
    }

    /** End of Worker.loadWorker: every executor runs; start following the plan store. */
    public static void onWorkerLoaded(Worker w) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || NonstopInternals.workerState(w) != rt.ws) {
            return;
        }
        FailureBudget attempts = new FailureBudget(ATTEMPTS);
        while (true) {
            try {
                rt.attach(w);
                return;
            } catch (RuntimeException | LinkageError e) {
                if (attempts.failed() == FailureBudget.Next.EXIT) {
                    rt.exit("attaching to the worker failed " + attempts.failures() + " times", e);
                    return;
                }
                LOG.warn("nonstop: attaching to the worker failed (attempt {} of {}); retrying", attempts.failures(),
                         ATTEMPTS, e);
            }
        }
    }

    /**
     * Replaces {@code WorkerState.suicideIfLocalAssignmentsChanged}: reconciles instead of exiting.
     *
     * @return true when handled (skip Storm's check), false to let Storm's check run (it exits)
     */
    public static boolean onAssignmentCheck(WorkerState ws, Assignment assignment) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || rt.ws != ws) {
            return false;
        }
        try {
            boolean handled = rt.reconcile(assignment);
            rt.reconcileFailures.succeeded();
            return handled;
        } catch (RuntimeException | LinkageError e) {
            if (rt.reconcileFailures.failed() == FailureBudget.Next.EXIT) {
                rt.exit("reconciling the executors with the plan failed " + rt.reconcileFailures.failures()
                        + " times in a row", e);
                return true;
            }
            LOG.warn("nonstop: reconcile failed (attempt {} of {}); retrying in {} ms", rt.reconcileFailures.failures(),
                     ATTEMPTS, RETRY_DELAY_MS, e);
            rt.retryLater();
            return true;
        }
    }

    /** Start of refreshConnections: one refresh at a time (Storm's timer or the plan watcher). */
    public static boolean beforeRefreshConnections(WorkerState ws) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || rt.ws != ws) {
            return false;
        }
        rt.refreshLock.lock();
        return true;
    }

    /** End of refreshConnections: connections to new homes exist now, so routing may switch. */
    public static void afterRefreshConnections(WorkerState ws, boolean locked) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || rt.ws != ws) {
            return;
        }
        try {
            rt.moveSet.releaseHeldFlushes();
            rt.moveSet.scheduleSwitch();
        } finally {
            if (locked) {
                rt.refreshLock.unlock();
            }
        }
    }

    /**
     * Start of transferLocalBatch (Netty's receive path): holds off queue removals for the batch, takes
     * out state handoff chunks for gates waiting here, and tuples for tasks that are not local (Storm
     * would fail on them).
     *
     * @return whether the delivery lock was taken (pass to {@link #afterLocalBatch})
     */
    public static boolean beforeLocalBatch(WorkerState ws, ArrayList<AddressedTuple> batch) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || rt.ws != ws) {
            return false;
        }
        rt.deliveryLock.readLock().lock();
        try {
            if (rt.handoffs != null) {
                rt.handoffs.takeChunks(batch);
            }
            rt.forwarder.divert(batch);
        } catch (RuntimeException e) {
            LOG.warn("nonstop: diverting non-local tuples failed", e);
        } catch (Error e) {
            // The exit advice does not run when the enter advice throws: release here.
            rt.deliveryLock.readLock().unlock();
            throw e;
        }
        return true;
    }

    /**
     * Start of TransferDrainer.send (the worker's transfer thread, under Storm's endpoint lock, with the
     * routing and connections the drainer sends by): messages for tasks that routing maps to this worker
     * itself are delivered here instead of being dropped, and what Storm will drop is counted.
     */
    public static void beforeRemoteSend(Map<Integer, ArrayList<TaskMessage>> bundles, Map<Integer, NodeInfo> taskToNode,
                                        Map<NodeInfo, IConnection> connections) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null) {
            return;
        }
        try {
            rt.selfDelivery.beforeSend(bundles, taskToNode, connections);
        } catch (RuntimeException e) {
            LOG.warn("nonstop: checking a flush for messages routed to this worker failed", e);
        }
    }

    public static void afterLocalBatch(boolean locked) {
        NonstopWorkerRuntime rt = instance;
        if (locked && rt != null) {
            rt.deliveryLock.readLock().unlock();
        }
    }

    /**
     * Worker.setupBackPressureCheckTimer: Storm skips it for a worker that holds every task at start;
     * executors may move away later, so with migration on the check always runs.
     *
     * @return true when handled here
     */
    public static boolean startBackPressureCheck(WorkerState ws, Map<String, Object> topologyConf) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || rt.ws != ws) {
            return false;
        }
        long ms = ObjectReader.getLong(topologyConf.get(Config.TOPOLOGY_BACKPRESSURE_CHECK_MILLIS));
        ws.backPressureCheckTimer.scheduleRecurringMs(ms, ms, ws::refreshBackPressureStatus);
        return true;
    }

    /**
     * End of WorkerState.refreshStormActive (the topology-status poll, on a timer that halts the worker
     * on any exception): while ZooKeeper is unreachable the worker keeps its last known status and the
     * next tick retries; other failures are Storm's to handle.
     *
     * @return the exception to rethrow, or null to return normally
     */
    public static Throwable afterStatusPoll(WorkerState ws, Throwable thrown) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || rt.ws != ws) {
            return thrown;
        }
        if (thrown == null) {
            if (rt.zkOutage.succeeded() == ZkOutage.Event.ENDED) {
                LOG.info("nonstop: ZooKeeper reachable again after {} ms ({} status poll(s) failed meanwhile); "
                         + "the worker ran on throughout", rt.zkOutage.lastOutageMs(), rt.zkOutage.lastFailures());
                rt.events.append("zk_reachable", Map.of("port", ws.port, "outage_ms", rt.zkOutage.lastOutageMs(),
                                                        "failed_polls", rt.zkOutage.lastFailures()));
            }
            return null;
        }
        if (!ZkOutage.isConnectivity(thrown)) {
            return thrown;
        }
        if (rt.zkOutage.failed() == ZkOutage.Event.STARTED) {
            LOG.warn("nonstop: ZooKeeper unreachable while polling the topology's status ({}); keeping the last "
                     + "known status and retrying on the next tick instead of halting the worker", thrown.toString());
            rt.events.append("zk_unreachable", Map.of("port", ws.port, "error", thrown.toString()));
        }
        return null;
    }

    /**
     * End of WorkerState.getLocalAssignment (the read at the start of each connection refresh): while
     * ZooKeeper is unreachable the last assignment read stands in, so Storm neither halts the worker
     * ("Assigment is null") nor drops its routes; see {@link LastKnownAssignment}.
     *
     * @return the assignment to return instead of throwing, or null to leave the read's outcome alone
     */
    public static Assignment afterAssignmentRead(WorkerState ws, Assignment read, Throwable thrown) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || rt.ws != ws) {
            return null;
        }
        if (thrown == null) {
            int failed = rt.lastAssignment.read(read);
            if (failed > 0) {
                LOG.info("nonstop: the assignment is readable again after {} failed read(s)", failed);
            }
            return null;
        }
        Optional<Assignment> kept = rt.lastAssignment.failed(thrown);
        if (kept.isPresent() && rt.lastAssignment.failures() == 1) {
            LOG.warn("nonstop: ZooKeeper unreachable while reading the assignment ({}); keeping the last one read "
                     + "and its routes instead of halting the worker", thrown.toString());
            rt.events.append("assignment_kept", Map.of("port", ws.port, "error", thrown.toString()));
        }
        return kept.orElse(null);
    }

    /** Worker.setupFlushTupleTimer: hand the timer a live view, so executors added later get flushed. */
    public static List<IRunningExecutor> flushTargets(Worker w, List<IRunningExecutor> captured) {
        NonstopWorkerRuntime rt = instance;
        if (rt == null || NonstopInternals.workerState(w) != rt.ws) {
            return captured;
        }
        AtomicReference<List<IRunningExecutor>> atom = NonstopInternals.executorsAtom(w);
        return new LiveList<>(atom::get);
    }

    /**
     * The daemon configuration (defaults.yaml, storm.yaml, -Dstorm.options), read once per worker JVM. It
     * cannot change while the JVM runs, yet Storm reads and validates it from disk again for every
     * executor it builds (Executor -> ClusterUtils.mkStormClusterState ->
     * LocalAssignmentsBackendFactory.getDefault): a profile of a 16-executor re-deployment put 95 % of
     * the build's CPU samples in that YAML parsing, 250 ms to over a second per executor on a busy node.
     */
    private static final Once<Map<String, Object>> DAEMON_CONF =
        new Once<>(() -> Collections.unmodifiableMap(ConfigUtils.readStormConfig()));

    /**
     * Replaces LocalAssignmentsBackendFactory.getDefault() in a worker whose migration support runs: the
     * same fresh InMemoryAssignmentBackend (it ignores the conf it is prepared with), prepared with the
     * configuration read once. Null (run Storm's method) when migration is off.
     */
    public static ILocalAssignmentsBackend defaultAssignmentsBackend() {
        if (instance == null) {
            return null;
        }
        try {
            ILocalAssignmentsBackend backend = new InMemoryAssignmentBackend();
            backend.prepare(DAEMON_CONF.get());
            return backend;
        } catch (RuntimeException e) {
            LOG.warn("nonstop: cached configuration unavailable ({}); Storm reads it again", e.toString());
            return null;
        }
    }

    /** Whether this worker follows the plan store. */
    public static boolean isActive() {
        return instance != null;
    }

    /** Start of Worker.shutdown. */
    public static void onShutdown(Worker w) {
        NonstopWorkerRuntime rt = instance;
        if (rt != null && NonstopInternals.workerState(w) == rt.ws) {
            rt.shutdown();
        }
    }

    // ------------------------------------------------------------------ setup

    private static void makeConcurrent(WorkerState ws) {
        Set<List<Long>> executors = ConcurrentHashMap.newKeySet();
        executors.addAll(ws.localExecutors);
        NonstopInternals.setLocalExecutors(ws, executors);
        NonstopInternals.setLocalTaskIds(ws, new LocalTaskList(ws.localTaskIds));
        NonstopInternals.setLocalReceiveQueues(ws, new ConcurrentHashMap<>(ws.localReceiveQueues));
        NonstopInternals.setExecutorReceiveQueueMap(ws, new ConcurrentHashMap<>(ws.executorReceiveQueueMap));
        NonstopInternals.setTaskToExecutorQueue(ws, new ConcurrentHashMap<>(ws.taskToExecutorQueue));
        Set<Integer> outbound = ConcurrentHashMap.newKeySet();
        outbound.addAll(NonstopInternals.outboundTasks(ws));
        NonstopInternals.setOutboundTasks(ws, outbound);
        BackPressureTracker bpt = NonstopInternals.bpTracker(ws);
        NonstopInternals.setBpTasks(bpt, new ConcurrentHashMap<>(NonstopInternals.bpTasks(bpt)));
    }

    /**
     * Starts following the plan store. What can fail comes first, and the swap is withdrawn if the
     * watcher cannot start, so a retry starts from scratch: nothing is left half-attached.
     */
    private void attach(Worker w) {
        ExecutorSwap s = new ExecutorSwap(ws, NonstopInternals.executorsAtom(w), retired, forwarder, deliveryLock, events,
                                          parked, clock);
        // Storm starts the outbound transfer thread only if the worker had remote targets at start-up;
        // after a migration it may need one.
        if (NonstopInternals.transferThread(w) == null) {
            Thread t = ws.makeTransferThread();
            t.setName("Worker-Transfer");
            NonstopInternals.setTransferThread(w, t);
        }
        this.worker = w;
        moveSet.attach(s);
        StateHandoffs.activate(handoffs);
        if (handoffs != null) {
            handoffs.startSizeMeasurements();
        }
        try {
            watcher = new PlanWatcher(store, settings.workerSyncMs(), settings.push(), this::onPlanVersion).start();
        } catch (RuntimeException | LinkageError e) {
            moveSet.attach(null);
            StateHandoffs.activate(null);
            throw e;
        }
        Thread.setDefaultUncaughtExceptionHandler(new StoppingExecutorGuard(Thread.getDefaultUncaughtExceptionHandler(),
                                                                            s::lastStopMs, clock));
        scheduler.scheduleWithFixedDelay(
            LoggedTask.of(LOG, "expire parked tuples", () -> forwarder.countDropped(parked.expire(clock.getAsLong()))),
            1, 1, TimeUnit.SECONDS);
        events.append("attached", Map.of("topology", ws.topologyId, "port", ws.port, "pid", ProcessHandle.current().pid(),
                                         "executors", ws.localExecutors.size()));
        LOG.info("nonstop: migration on for {} port {}: plan store {}, T_W={} ms, push={}, D_K={} ms",
                 ws.topologyId, ws.port, store.file(), settings.workerSyncMs(), settings.push(), settings.lazyKillMs());
    }

    private void shutdown() {
        PlanWatcher pw = watcher;
        if (pw != null) {
            pw.close();
        }
        scheduler.shutdownNow();
        StateHandoffs.activate(null);
        moveSet.shutdown();
    }

    /**
     * Ends the worker the way Storm ends one whose assignment it cannot follow: Storm's supervisor
     * relaunches it on its slot with Nimbus's assignment; the acker replays what was lost. Must not be
     * called while holding the moves' lock (Storm's shutdown hook stops the runtime, which takes it).
     */
    private void exit(String why, Throwable cause) {
        LOG.error("nonstop: {}; exiting so that the supervisor relaunches this worker with its assignment", why, cause);
        events.append("exit", Map.of("port", ws.port, "reason", why, "error", String.valueOf(cause)));
        LogFlush.flush();
        Utils.exitProcess(1, "nonstop: " + why);
    }

    /** Runs the connection refresh (and with it the reconcile) again soon. */
    private void retryLater() {
        try {
            scheduler.schedule(LoggedTask.of(LOG, "reconcile retry", this::refreshNow), RETRY_DELAY_MS,
                               TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("nonstop: worker shutting down; no reconcile retry");
        }
    }

    // ------------------------------------------------------------------ plan store -> refresh

    private void onPlanVersion(NodePlan plan) {
        Optional<PortPlan> mine = plan.port(ws.port);
        String relevant = mine.map(Object::toString).orElse("-") + "|" + plan.topologyFingerprints().get(ws.topologyId);
        if (relevant.equals(lastRelevant)) {
            return;
        }
        lastRelevant = relevant;
        LOG.info("nonstop: plan store v{} (written {} ms ago) changes this worker's view; refreshing",
                 plan.version(), clock.getAsLong() - plan.writtenAtMs());
        events.append("plan_seen", Map.of("port", ws.port, "plan_version", plan.version(),
                                          "plan_written_ms", plan.writtenAtMs()));
        refreshNow();
    }

    /**
     * Runs Storm's connection refresh (and with it the reconcile) at once on the watcher's thread:
     * Storm's timer thread sleeps up to a second before it notices newly scheduled work.
     */
    private void refreshNow() {
        try {
            ws.refreshConnections();
        } catch (RuntimeException e) {
            LOG.warn("nonstop: refreshing connections after a plan change failed; Storm's timer retries", e);
        }
    }

    // ------------------------------------------------------------------ reconcile

    private boolean reconcile(Assignment assignment) {
        if (!moveSet.attached()) {
            // Still loading: the executors being started come from this very assignment.
            return true;
        }
        Optional<NodePlan> plan;
        try {
            plan = store.read();
        } catch (IOException | PlanFormatException e) {
            LOG.warn("nonstop: plan store unreadable ({}); following Storm's assignment", e.toString());
            plan = Optional.empty();
        }
        Optional<Set<ExecutorId>> assigned = Optional.ofNullable(assignment).map(this::assignedHere);
        Optional<String> fingerprint = Optional.ofNullable(assignment).map(Assignment::get_executor_node_port)
            .map(AssignmentFingerprint::ofAssignment);
        DesiredExecutors.Decision d = DesiredExecutors.decide(ws.topologyId, ws.port, plan, assigned, fingerprint);
        if (d.exit()) {
            LOG.info("nonstop: {}; leaving the decision to Storm", d.reason());
            return false;
        }
        if (d.staleStoreFingerprint() != null) {
            noteStaleStore(plan.get(), d.staleStoreFingerprint(), fingerprint.get());
        }
        return moveSet.reconcile(d.executors(), plan, String.valueOf(d.source()));
    }

    private void noteStaleStore(NodePlan plan, String storeFingerprint, String assignmentFingerprint) {
        String key = plan.version() + "|" + storeFingerprint + "|" + assignmentFingerprint;
        if (key.equals(lastStaleIgnored)) {
            return;
        }
        lastStaleIgnored = key;
        LOG.info("nonstop: plan store v{} is stale for {} (fingerprint {}, Nimbus's assignment {}); "
                 + "following the assignment", plan.version(), ws.topologyId, storeFingerprint, assignmentFingerprint);
        events.append("stale_plan_ignored", Map.of("port", ws.port, "plan_version", plan.version(),
                                                   "store_fingerprint", storeFingerprint,
                                                   "assignment_fingerprint", assignmentFingerprint));
    }

    private Set<ExecutorId> assignedHere(Assignment a) {
        Set<ExecutorId> out = new HashSet<>();
        Map<List<Long>, NodeInfo> enp = a.get_executor_node_port();
        if (enp != null) {
            for (Map.Entry<List<Long>, NodeInfo> e : enp.entrySet()) {
                NodeInfo ni = e.getValue();
                if (ni.get_node().equals(ws.assignmentId) && !ni.get_port().isEmpty()
                    && ni.get_port().iterator().next() == ws.port) {
                    out.add(ExecutorId.fromStorm(e.getKey()));
                }
            }
        }
        return out;
    }
}
