package org.apache.storm.daemon.worker;

import io.nonstopstorm.migration.config.MigrationSettings;
import io.nonstopstorm.migration.plan.AssignmentFingerprint;
import io.nonstopstorm.migration.plan.ExecutorRange;
import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.plan.PlanFormatException;
import io.nonstopstorm.migration.plan.PlanStore;
import io.nonstopstorm.migration.plan.PortPlan;
import io.nonstopstorm.migration.reconcile.DesiredExecutors;
import io.nonstopstorm.migration.reconcile.ExecutorDiff;
import io.nonstopstorm.migration.verify.AgentStatus;
import io.nonstopstorm.migration.verify.VerificationReport;
import io.nonstopstorm.migration.worker.FailureBudget;
import io.nonstopstorm.migration.worker.LastKnownAssignment;
import io.nonstopstorm.migration.worker.LoggedTask;
import io.nonstopstorm.migration.worker.LiveList;
import io.nonstopstorm.migration.worker.MigrationEventLog;
import io.nonstopstorm.migration.worker.MoveBook;
import io.nonstopstorm.migration.worker.MoveEvent;
import io.nonstopstorm.migration.worker.MoveMachine;
import io.nonstopstorm.migration.worker.MovePhase;
import io.nonstopstorm.migration.worker.MoveRole;
import io.nonstopstorm.migration.worker.MoveStep;
import io.nonstopstorm.migration.worker.Once;
import io.nonstopstorm.migration.worker.ParkedTuples;
import io.nonstopstorm.migration.worker.PlanWatcher;
import io.nonstopstorm.migration.worker.RetiredTasks;
import io.nonstopstorm.migration.worker.RoutingEpoch;
import io.nonstopstorm.migration.worker.TupleSizeEstimate;
import io.nonstopstorm.migration.worker.ZkOutage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
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
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import org.apache.storm.Config;
import org.apache.storm.assignments.ILocalAssignmentsBackend;
import org.apache.storm.assignments.InMemoryAssignmentBackend;
import org.apache.storm.executor.IRunningExecutor;
import org.apache.storm.generated.Assignment;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.task.WorkerTopologyContext;
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
 * and are then shut down. Each executor's move is a {@link MoveBook} entry: this class observes and
 * applies the effects, {@link MoveMachine} decides which effect comes next.
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
    private final ZkOutage zkOutage;
    private final LastKnownAssignment<Assignment> lastAssignment = new LastKnownAssignment<>();
    private final FailureBudget reconcileFailures = new FailureBudget(ATTEMPTS);
    /** Storm runs refreshConnections on its timer; the plan watcher runs it too, never at the same time. */
    private final ReentrantLock refreshLock = new ReentrantLock();
    /** Held by Netty's delivery (read) and by changes to the receive queues (write). */
    private final ReentrantReadWriteLock deliveryLock = new ReentrantReadWriteLock();
    /** Guards {@link #moves} and serialises every call into {@link #swap}. */
    private final ReentrantLock movesLock = new ReentrantLock();
    private final ScheduledExecutorService scheduler;
    /** Every executor move under way here; a source's entry holds its draining instance until the lazy kill. */
    private final MoveBook<ExecutorSwap.Retiring> moves;
    private volatile Worker worker;
    private volatile ExecutorSwap swap;
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
        this.moves = new MoveBook<>(new MoveMachine(settings.connectWaitMs(), settings.lazyKillMs()));
        this.parked = new ParkedTuples<>(PARK_TTL_MS, PARK_CAPACITY, settings.parkedMaxBytes(),
                                         t -> TupleSizeEstimate.of(t.getTuple().getValues()));
        this.forwarder = new TupleForwarder(ws, retired, parked, clock);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "nonstop-reconciler");
            t.setDaemon(true);
            return t;
        });
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
            instance = new NonstopWorkerRuntime(ws, s, WALL_CLOCK);
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
            rt.scheduleSwitch();
        } finally {
            if (locked) {
                rt.refreshLock.unlock();
            }
        }
    }

    /**
     * Start of transferLocalBatch (Netty's receive path): holds off queue removals for the batch and
     * takes out tuples for tasks that are not local (Storm would fail on them).
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
        this.swap = s;
        try {
            watcher = new PlanWatcher(store, settings.workerSyncMs(), settings.push(), this::onPlanVersion).start();
        } catch (RuntimeException | LinkageError e) {
            this.swap = null;
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
        movesLock.lock();
        try {
            for (MoveBook.Ended<ExecutorSwap.Retiring> ended : moves.shutdown(clock.getAsLong())) {
                if (ended.before().instanceLive()) {
                    stopQuietly(ended.move().handle(), MovePhase.SHUT_DOWN);
                }
            }
        } finally {
            movesLock.unlock();
        }
    }

    /**
     * Ends the worker the way Storm ends one whose assignment it cannot follow: Storm's supervisor
     * relaunches it on its slot with Nimbus's assignment; the acker replays what was lost. Must not be
     * called while holding {@link #movesLock} (Storm's shutdown hook stops the runtime, which takes it).
     */
    private void exit(String why, Throwable cause) {
        LOG.error("nonstop: {}; exiting so that the supervisor relaunches this worker with its assignment", why, cause);
        events.append("exit", Map.of("port", ws.port, "reason", why, "error", String.valueOf(cause)));
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
        if (swap == null) {
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
        Optional<Set<ExecutorRange>> assigned = Optional.ofNullable(assignment).map(this::assignedHere);
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
        movesLock.lock();
        try {
            Set<ExecutorRange> running = new HashSet<>();
            ws.localExecutors.forEach(e -> running.add(ExecutorRange.of(e)));
            ExecutorDiff diff = ExecutorDiff.between(running, d.executors());
            if (diff.isEmpty()) {
                return true;
            }
            if (Boolean.getBoolean(TEST_FAIL_RECONCILE)) {
                throw new IllegalStateException("reconcile failure injected (" + TEST_FAIL_RECONCILE + ", test only)");
            }
            long now = clock.getAsLong();
            long version = plan.map(NodePlan::version).orElse(-1L);
            long writtenAt = plan.map(NodePlan::writtenAtMs).orElse(now);
            LOG.info("nonstop: reconciling port {} to plan v{} ({}, {} ms after the plan was written): {}",
                     ws.port, version, d.source(), now - writtenAt, diff);
            parked.newMove();
            events.append("reconcile", Map.of("port", ws.port, "plan_version", version, "plan_written_ms", writtenAt,
                                              "source", String.valueOf(d.source()),
                                              "added", diff.toAdd().toString(), "removed", diff.toRemove().toString()));
            for (ExecutorRange r : diff.toRemove()) {
                stopSuperseded(moves.plan(r, MoveRole.SOURCE, version, writtenAt, now));
                moves.attach(r, swap.detach(r, now));
                apply(r, MoveEvent.DETACHED, now, null);
            }
            for (ExecutorRange r : diff.toAdd()) {
                // Coming back before its lazy kill: the old instance stops first, then one starts afresh.
                stopSuperseded(moves.plan(r, MoveRole.TARGET, version, writtenAt, now));
            }
            ExecutorSwap.StartResult started = swap.startAll(new ArrayList<>(diff.toAdd()));
            long startedAt = clock.getAsLong();
            for (ExecutorRange r : started.started()) {
                apply(r, MoveEvent.INSTANCE_STARTED, startedAt, null);
            }
            for (Map.Entry<ExecutorRange, String> f : started.failed().entrySet()) {
                apply(f.getKey(), MoveEvent.INSTANCE_FAILED, startedAt, f.getValue());
                events.append("start_failed", Map.of("port", ws.port, "executor", f.getKey().toString(),
                                                     "reason", f.getValue(), "phase", MovePhase.START_FAILED.wireName()));
            }
            recomputeOutboundTasks();
            return true;
        } finally {
            movesLock.unlock();
        }
    }

    /** A move a newer plan ended: an old instance still draining is stopped now. */
    private void stopSuperseded(Optional<MoveBook.Ended<ExecutorSwap.Retiring>> old) {
        if (old.isPresent() && old.get().before().instanceLive()) {
            swap.finish(old.get().move().handle(), MovePhase.SUPERSEDED);
        }
    }

    /** Feeds an event to the executor's current move; a refused event is logged and changes nothing. */
    private Optional<MoveStep> apply(ExecutorRange r, MoveEvent event, long nowMs, String detail) {
        return apply(r, -1, event, nowMs, detail);
    }

    private Optional<MoveStep> apply(ExecutorRange r, long moveId, MoveEvent event, long nowMs, String detail) {
        Optional<MoveStep> step = moves.step(r, moveId, event, nowMs, detail);
        step.filter(st -> !st.applied()).ifPresent(st -> LOG.warn("nonstop: {} ignored: {}", event, st.illegal()));
        return step;
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

    private Set<ExecutorRange> assignedHere(Assignment a) {
        Set<ExecutorRange> out = new HashSet<>();
        Map<List<Long>, NodeInfo> enp = a.get_executor_node_port();
        if (enp != null) {
            for (Map.Entry<List<Long>, NodeInfo> e : enp.entrySet()) {
                NodeInfo ni = e.getValue();
                if (ni.get_node().equals(ws.assignmentId) && !ni.get_port().isEmpty()
                    && ni.get_port().iterator().next() == ws.port) {
                    out.add(ExecutorRange.of(e.getKey()));
                }
            }
        }
        return out;
    }

    /**
     * Storm computes the tasks this worker sends to once; with executors coming and going it is the
     * targets of every local component and of every executor still draining before its lazy kill, plus
     * tasks that just left (so tuples can follow them). Without the draining executors' targets, the next
     * connection refresh forgets their addresses and Storm's transfer drops what they emit ("No remote
     * destination available for task"): every tuple tree still queued at the moved executor is lost,
     * which stalls a spout held at topology.max.spout.pending for a whole message timeout.
     */
    private void recomputeOutboundTasks() {
        WorkerTopologyContext ctx = ws.getWorkerTopologyContext();
        Set<Integer> senders = new HashSet<>(ws.localTaskIds);
        for (ExecutorSwap.Retiring r : moves.liveInstances()) {
            senders.addAll(r.tasks());
        }
        Set<String> components = new HashSet<>();
        for (Integer task : senders) {
            for (Map<String, Grouping> targets : ctx.getTargets(ctx.getComponentId(task)).values()) {
                components.addAll(targets.keySet());
            }
        }
        Set<Integer> next = new HashSet<>(retired.live());
        for (String c : components) {
            next.addAll(ctx.getComponentTasks(c));
        }
        Set<Integer> outbound = NonstopInternals.outboundTasks(ws);
        outbound.addAll(next);
        outbound.retainAll(next);
    }

    // ------------------------------------------------------------------ routing switch and lazy kill

    private void scheduleSwitch() {
        List<MoveBook.Move<ExecutorSwap.Retiring>> claimed;
        movesLock.lock();
        try {
            claimed = moves.refreshed(clock.getAsLong());
        } finally {
            movesLock.unlock();
        }
        if (claimed.isEmpty()) {
            return;
        }
        try {
            scheduler.execute(LoggedTask.of(LOG, "routing switch", () -> switchRouting(claimed)));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("nonstop: worker shutting down; routing switch skipped");
        }
    }

    /**
     * Waits (up to the machine's connection wait) for the connections to every moved task's new home,
     * then switches local routing once for all the moves the refresh took; each source then drains for D_K.
     */
    private void switchRouting(List<MoveBook.Move<ExecutorSwap.Retiring>> claimed) {
        long start = clock.getAsLong();
        long deadline = start + moves.machine().connectWaitMs();
        boolean allReady;
        while (!(allReady = claimed.stream().allMatch(this::connectionsReady)) && clock.getAsLong() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
        MoveBook.Switch<ExecutorSwap.Retiring> done;
        int epoch;
        long now;
        movesLock.lock();
        try {
            now = clock.getAsLong();
            done = moves.switched(claimed, allReady, this::connectionsReady, now);
            epoch = RoutingEpoch.bump();
        } finally {
            movesLock.unlock();
        }
        done.refused().forEach(st -> LOG.warn("nonstop: {} ignored: {}", st.event(), st.illegal()));
        LOG.info("nonstop: routing epoch {} on port {}: {} executor(s) out, {} in; switched {} ms after the plan "
                 + "was written ({} ms waiting for connections{})", epoch, ws.port, done.out(), done.in(),
                 now - done.planWrittenAtMs(), now - start,
                 done.timedOut() == 0 ? "" : "; " + done.timedOut() + " move(s) switched without them");
        events.append("switch", Map.of("port", ws.port, "epoch", epoch, "plan_version", done.planVersion(),
                                       "plan_written_ms", done.planWrittenAtMs(), "waited_ms", now - start,
                                       "out", done.out(), "in", done.in(), "timed_out", done.timedOut()));
        for (MoveBook.Move<ExecutorSwap.Retiring> m : done.draining()) {
            scheduleLazyKill(m.state().executor(), m.id(), moves.machine().drainMs());
        }
    }

    /** A source's connections to its tasks' new home are ready (a target waits for nothing here). */
    private boolean connectionsReady(MoveBook.Move<ExecutorSwap.Retiring> m) {
        ExecutorSwap.Retiring r = m.handle();
        if (m.state().role() != MoveRole.SOURCE || r == null) {
            return true;
        }
        Map<Integer, NodeInfo> taskToNode = ws.cachedTaskToNodePort.get();
        Map<NodeInfo, IConnection> connections = ws.cachedNodeToPortSocket.get();
        for (int t : r.tasks()) {
            NodeInfo where = taskToNode.get(t);
            if (where == null) {
                return false;
            }
            IConnection c = connections.get(where);
            if (c == null || !WorkerState.isConnectionReady(c)) {
                return false;
            }
        }
        return true;
    }

    private void scheduleLazyKill(ExecutorRange range, long moveId, long delayMs) {
        try {
            scheduler.schedule(LoggedTask.of(LOG, "lazy kill of " + range, () -> lazyKill(range, moveId)),
                               Math.max(1, delayMs), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("nonstop: worker shutting down; its shutdown stops {}", range);
        }
    }

    private void lazyKill(ExecutorRange range, long moveId) {
        movesLock.lock();
        try {
            Optional<MoveBook.Move<ExecutorSwap.Retiring>> current = moves.get(range).filter(m -> m.id() == moveId);
            if (current.isEmpty()) {
                return; // that move ended already (the executor came back, or the worker is shutting down)
            }
            long now = clock.getAsLong();
            Optional<MoveStep> step = moves.step(range, moveId, MoveEvent.DRAIN_ELAPSED, now, null);
            if (step.isPresent() && step.get().entered(MovePhase.RETIRED)) {
                stopQuietly(current.get().handle(), MovePhase.RETIRED);
            } else if (step.isPresent() && step.get().after().phase() == MovePhase.DRAINING) {
                // The timer ran on another clock and fired a little early: wait for the rest of D_K.
                scheduleLazyKill(range, moveId, moves.machine().drainEndsAtMs(step.get().after()) - now);
                return;
            }
        } finally {
            movesLock.unlock();
        }
        recomputeOutboundTasksLater();
    }

    private void stopQuietly(ExecutorSwap.Retiring r, MovePhase phase) {
        try {
            swap.finish(r, phase);
        } catch (RuntimeException e) {
            LOG.error("nonstop: stopping executor {} failed", r.range(), e);
        }
    }

    private void recomputeOutboundTasksLater() {
        // Retired tasks age out of the forwarding set; the next refresh drops their connections.
        scheduler.schedule(LoggedTask.of(LOG, "recompute outbound tasks", () -> {
            movesLock.lock();
            try {
                recomputeOutboundTasks();
            } finally {
                movesLock.unlock();
            }
        }), FORWARD_TTL_MS + 1000, TimeUnit.MILLISECONDS);
    }
}
