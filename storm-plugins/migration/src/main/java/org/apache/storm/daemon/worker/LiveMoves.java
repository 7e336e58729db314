package org.apache.storm.daemon.worker;

import io.nonstopstorm.migration.config.MigrationSettings;
import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.reconcile.ExecutorDiff;
import io.nonstopstorm.migration.worker.LoggedTask;
import io.nonstopstorm.migration.worker.MigrationEventLog;
import io.nonstopstorm.migration.worker.MoveBook;
import io.nonstopstorm.migration.worker.MoveEvent;
import io.nonstopstorm.migration.worker.MoveMachine;
import io.nonstopstorm.migration.worker.MovePhase;
import io.nonstopstorm.migration.worker.MoveRole;
import io.nonstopstorm.migration.worker.MoveStep;
import io.nonstopstorm.migration.worker.ParkedTuples;
import io.nonstopstorm.migration.worker.RoutingEpoch;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.apache.storm.daemon.StormCommon;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.tuple.AddressedTuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This worker's executor moves, applied to Storm: each executor's move is a {@link MoveBook} entry whose
 * next step {@link MoveMachine} decides; this class observes what happened (a start, a refresh, ready
 * connections, D_K elapsed) and applies the effect of each accepted step through {@link ExecutorSwap}
 * (start, detach, stop), the routing epoch and the outbound task set. One lock serialises the book and
 * every call into the swap; the connection wait runs outside it.
 */
final class LiveMoves {
    private static final Logger LOG = LoggerFactory.getLogger(LiveMoves.class);
    /** How long the routing switch polls for ready connections between checks. */
    private static final long CONNECTION_POLL_MS = 10;

    private final WorkerState ws;
    private final MigrationEventLog events;
    private final LongSupplier clock;
    private final ParkedTuples<AddressedTuple> parked;
    private final ScheduledExecutorService scheduler;
    /** State handoff for bolts that opt in; null when it is off. */
    private final StateHandoffs handoffs;
    /** From a target's start to the latest its source's snapshot can be expected (plan, switch, drain, transfer). */
    private final long handoffWaitMs;
    /** Guards {@link #moves} and serialises every call into {@link #swap}. */
    private final ReentrantLock movesLock = new ReentrantLock();
    /** Every move under way here; a source's entry holds its draining instance until the lazy kill. */
    private final MoveBook<ExecutorSwap.Retiring> moves;
    private volatile ExecutorSwap swap;

    LiveMoves(WorkerState ws, MigrationSettings settings, MigrationEventLog events, LongSupplier clock,
              ParkedTuples<AddressedTuple> parked, ScheduledExecutorService scheduler, StateHandoffs handoffs) {
        this.ws = ws;
        this.events = events;
        this.clock = clock;
        this.parked = parked;
        this.scheduler = scheduler;
        this.handoffs = handoffs;
        this.handoffWaitMs = handoffs == null ? 0 : settings.workerSyncMs() + settings.connectWaitMs()
                                                    + settings.lazyKillMs() + handoffs.limits().transferTimeoutMs();
        this.moves = new MoveBook<>(new MoveMachine(settings.connectWaitMs(), settings.lazyKillMs()));
    }

    /** The worker finished loading (null: withdrawn, the attach failed). */
    void attach(ExecutorSwap s) {
        this.swap = s;
    }

    /** Whether the worker is loaded (before, the executors being started come from the assignment itself). */
    boolean attached() {
        return swap != null;
    }

    /**
     * Brings the executors running here to {@code desired}: the leaving ones are detached (and drain),
     * the arriving ones started; both then wait for the connection refresh's end ({@link #scheduleSwitch}).
     *
     * @param plan the plan store's plan, for the version and writing time the events report
     * @param source which input decided {@code desired} (for the event log)
     */
    boolean reconcile(Set<ExecutorId> desired, Optional<NodePlan> plan, String source) {
        movesLock.lock();
        try {
            Set<ExecutorId> running = new HashSet<>();
            ws.localExecutors.forEach(e -> running.add(ExecutorId.fromStorm(e)));
            ExecutorDiff diff = ExecutorDiff.between(running, desired);
            recomputeOutboundTasks();
            if (diff.isEmpty()) {
                return true;
            }
            if (Boolean.getBoolean(NonstopWorkerRuntime.TEST_FAIL_RECONCILE)) {
                throw new IllegalStateException("reconcile failure injected ("
                                                + NonstopWorkerRuntime.TEST_FAIL_RECONCILE + ", test only)");
            }
            long now = clock.getAsLong();
            long version = plan.map(NodePlan::version).orElse(-1L);
            long writtenAt = plan.map(NodePlan::writtenAtMs).orElse(now);
            LOG.info("nonstop: reconciling port {} to plan v{} ({}, {} ms after the plan was written): {}",
                     ws.port, version, source, now - writtenAt, diff);
            parked.newMove();
            events.append("reconcile", Map.of("port", ws.port, "plan_version", version, "plan_written_ms", writtenAt,
                                              "source", source,
                                              "added", diff.toAdd().toString(), "removed", diff.toRemove().toString()));
            for (ExecutorId r : diff.toRemove()) {
                stopSuperseded(moves.plan(r, MoveRole.SOURCE, version, writtenAt, now));
                moves.attach(r, swap.detach(r, now));
                apply(r, MoveEvent.DETACHED, now, null);
            }
            for (ExecutorId r : diff.toAdd()) {
                // Coming back before its lazy kill: the old instance stops first, then one starts afresh.
                stopSuperseded(moves.plan(r, MoveRole.TARGET, version, writtenAt, now));
            }
            if (!diff.toAdd().isEmpty()) {
                takeInLate(Long.getLong(NonstopWorkerRuntime.TEST_TAKE_IN_DELAY_MS, 0L));
            }
            if (handoffs != null) {
                // Closed before the executors start, so no tuple reaches a new instance ahead of its state.
                for (ExecutorId r : diff.toAdd()) {
                    List<Integer> tasks = StormCommon.executorIdToTasks(new ArrayList<>(r.toStorm()));
                    handoffs.stopped(tasks);
                    handoffs.expect(tasks, now + handoffWaitMs);
                }
            }
            if (!diff.toAdd().isEmpty()) {
                holdFlushes(Long.getLong(NonstopWorkerRuntime.TEST_ARRIVAL_HOLD_MS, 0L));
            }
            ExecutorSwap.StartResult started = swap.startAll(new ArrayList<>(diff.toAdd()));
            if (!started.started().isEmpty()) {
                // Executors of this worker see the arrivals at once. Until then they would send to them by
                // the remote path, and a connection refresh may already map them to this worker itself,
                // for which there is no connection: Storm drops such tuples ("Connection not available").
                RoutingEpoch.bump();
            }
            long startedAt = clock.getAsLong();
            for (ExecutorId r : started.started()) {
                apply(r, MoveEvent.INSTANCE_STARTED, startedAt, null);
            }
            for (Map.Entry<ExecutorId, String> f : started.failed().entrySet()) {
                apply(f.getKey(), MoveEvent.INSTANCE_FAILED, startedAt, f.getValue());
                events.append("start_failed", Map.of("port", ws.port, "executor", f.getKey().toString(),
                                                     "reason", f.getValue(),
                                                     "phase", MovePhase.START_FAILED.wireName()));
            }
            return true;
        } finally {
            movesLock.unlock();
        }
    }

    /**
     * Test only ({@link NonstopWorkerRuntime#TEST_TAKE_IN_DELAY_MS}): the arriving tasks have neither a gate nor
     * an executor here yet, so what peers that switched already send them (a snapshot among it) must wait.
     */
    private static void takeInLate(long delayMs) {
        if (delayMs <= 0) {
            return;
        }
        try {
            Thread.sleep(delayMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Test only ({@link NonstopWorkerRuntime#TEST_ARRIVAL_HOLD_MS}): takes Storm's endpoint lock, which the
     * transfer thread's flush needs, and keeps it through the rest of this refresh; local senders still
     * queue tuples for the arrivals on the remote path while this thread waits.
     */
    private void holdFlushes(long ms) {
        if (ms <= 0) {
            return;
        }
        ws.endpointSocketLock.writeLock().lock();
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The connection refresh ended: flushes held for a test go on. */
    void releaseHeldFlushes() {
        while (ws.endpointSocketLock.isWriteLockedByCurrentThread()) {
            ws.endpointSocketLock.writeLock().unlock();
        }
    }

    /** A move a newer plan ended: an old instance still draining is stopped now. */
    private void stopSuperseded(Optional<MoveBook.Ended<ExecutorSwap.Retiring>> old) {
        if (old.isPresent() && old.get().before().instanceLive()) {
            swap.finish(old.get().move().handle(), MovePhase.SUPERSEDED);
            if (handoffs != null) {
                handoffs.stopped(old.get().move().handle().tasks());
            }
        }
    }

    /** Feeds an event to the executor's current move; a refused event is logged and changes nothing. */
    private Optional<MoveStep> apply(ExecutorId r, MoveEvent event, long nowMs, String detail) {
        return apply(r, -1, event, nowMs, detail);
    }

    private Optional<MoveStep> apply(ExecutorId r, long moveId, MoveEvent event, long nowMs, String detail) {
        Optional<MoveStep> step = moves.step(r, moveId, event, nowMs, detail);
        step.filter(st -> !st.applied()).ifPresent(st -> LOG.warn("nonstop: {} ignored: {}", event, st.illegal()));
        return step;
    }

    /** The worker shuts down: every move ends, and the old instances still draining stop now. */
    void shutdown() {
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
     * The tasks this worker sends to, which decide the workers the connection refresh keeps connections to:
     * every task of the topology, so this worker is connected to every other worker of its topology. Storm
     * computes them once, from its own executors' targets; with executors coming and going that is too few:
     * <ul>
     * <li>an executor that moves in sends at once (its emits, and its acks to ackers elsewhere), before the
     * refresh that follows its start has connected this worker to those workers, and Storm's client drops
     * what it is given before its connection is up ("Dropping N messages"): those tuple trees fail and are
     * replayed, and a state that counted them counts them twice;</li>
     * <li>an executor draining before its lazy kill, and tasks that just left, need their targets' addresses,
     * or Storm's transfer drops what they emit ("No remote destination available for task").</li>
     * </ul>
     * A topology's tasks do not change while it runs; the set is filled on the first reconcile after the
     * worker loaded, inside a connection refresh, whose rest then opens the connections.
     */
    private void recomputeOutboundTasks() {
        Set<Integer> all = ws.getWorkerTopologyContext().getTaskToComponent().keySet();
        Set<Integer> outbound = NonstopInternals.outboundTasks(ws);
        if (!outbound.containsAll(all)) {
            outbound.addAll(all);
        }
    }

    // ------------------------------------------------------------------ routing switch and lazy kill

    /** The connection refresh ended: the moves it covered may switch routing once their connections are ready. */
    void scheduleSwitch() {
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
        long delay = Long.getLong(NonstopWorkerRuntime.TEST_SWITCH_DELAY_MS, 0L);
        if (delay > 0) {
            try {
                Thread.sleep(delay);   // test only: widens the window between a move's start and its switch
            } catch (InterruptedException e) {
                return;
            }
        }
        long start = clock.getAsLong();
        long deadline = start + moves.machine().connectWaitMs();
        boolean allReady;
        while (!(allReady = claimed.stream().allMatch(this::connectionsReady)) && clock.getAsLong() < deadline) {
            try {
                Thread.sleep(CONNECTION_POLL_MS);
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
            for (MoveBook.Move<ExecutorSwap.Retiring> m : done.draining()) {
                swap.leaveLocalRoutes(m.handle());
            }
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
            if (handoffs != null) {
                // Behind everything local senders queued before the switch; the old instance snapshots there.
                handoffs.barrier(m.handle().tasks(), m.handle().queue(), m.state().planVersion());
            }
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

    private void scheduleLazyKill(ExecutorId range, long moveId, long delayMs) {
        try {
            scheduler.schedule(LoggedTask.of(LOG, "lazy kill of " + range, () -> lazyKill(range, moveId)),
                               Math.max(1, delayMs), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("nonstop: worker shutting down; its shutdown stops {}", range);
        }
    }

    private void lazyKill(ExecutorId range, long moveId) {
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
    }

    private void stopQuietly(ExecutorSwap.Retiring r, MovePhase phase) {
        try {
            swap.finish(r, phase);
            if (handoffs != null) {
                handoffs.stopped(r.tasks());
            }
        } catch (RuntimeException e) {
            LOG.error("nonstop: stopping executor {} failed", r.range(), e);
        }
    }

}
