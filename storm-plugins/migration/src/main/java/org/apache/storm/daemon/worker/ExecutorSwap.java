package org.apache.storm.daemon.worker;

import io.nonstopstorm.migration.worker.ExecutorTimers;
import io.nonstopstorm.migration.worker.MigrationEventLog;
import io.nonstopstorm.migration.worker.MovePhase;
import io.nonstopstorm.migration.worker.ParkedTuples;
import io.nonstopstorm.migration.worker.RetiredTasks;
import io.nonstopstorm.migration.worker.RoutingEpoch;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.LongSupplier;
import org.apache.storm.Config;
import org.apache.storm.daemon.StormCommon;
import org.apache.storm.daemon.worker.BackPressureTracker.BackpressureState;
import org.apache.storm.executor.Executor;
import org.apache.storm.executor.ExecutorShutdown;
import org.apache.storm.executor.IRunningExecutor;
import org.apache.storm.generated.Credentials;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.utils.JCQueue;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts and stops single executors inside a running worker, keeping every structure Storm built at
 * start-up (receive queues, task maps, local task list, back-pressure state, the executor list, metrics)
 * consistent. Not thread-safe: the caller serialises calls.
 */
final class ExecutorSwap {
    private static final Logger LOG = LoggerFactory.getLogger(ExecutorSwap.class);
    private static final long EXTRA_JOIN_MS = 1000;
    /** Executors built at once; more would only queue for the node's cores. */
    private static final int MAX_PARALLEL_BUILDS = 8;
    private static final AtomicInteger BUILDERS = new AtomicInteger();
    private static final ThreadFactory BUILDER_THREADS = r -> {
        Thread t = new Thread(r, "nonstop-executor-builder-" + BUILDERS.incrementAndGet());
        t.setDaemon(true);
        return t;
    };

    /** An executor taken out of routing but still draining its queue until its lazy kill. */
    record Retiring(ExecutorId range, List<Long> id, IRunningExecutor running, JCQueue queue, List<Integer> tasks,
                    String componentId, long detachedAtMs) {
    }

    private final WorkerState ws;
    private final AtomicReference<List<IRunningExecutor>> executors;
    private final RetiredTasks retired;
    private final TupleForwarder forwarder;
    private final ReadWriteLock deliveryLock;
    private final MigrationEventLog events;
    private final ParkedTuples<AddressedTuple> parked;
    private final LongSupplier clock;
    private volatile long lastStopMs = 0;

    ExecutorSwap(WorkerState ws, AtomicReference<List<IRunningExecutor>> executors, RetiredTasks retired,
                 TupleForwarder forwarder, ReadWriteLock deliveryLock, MigrationEventLog events,
                 ParkedTuples<AddressedTuple> parked, LongSupplier clock) {
        this.ws = ws;
        this.executors = executors;
        this.retired = retired;
        this.forwarder = forwarder;
        this.deliveryLock = deliveryLock;
        this.events = events;
        this.parked = parked;
        this.clock = clock;
    }

    /** An executor registered in the worker's routing structures, whose Executor object is not built yet. */
    private record Prepared(ExecutorId range, List<Long> id, List<Integer> tasks, String component, JCQueue queue,
                            Map<Integer, BackpressureState> bp, int unparked, long t0, long t1) {
    }

    /** A built Executor object, and when its build began and ended (System.nanoTime()). */
    private record Built(Executor executor, long startNs, long endNs) {
    }

    /** What {@link #startAll} did: the executors now running, and why each of the others is not. */
    record StartResult(List<ExecutorId> started, Map<ExecutorId, String> failed) {
    }

    /**
     * Starts executors: creates each one's queue and state, registers it everywhere, and starts its
     * thread. Building an Executor object (Storm's {@code Executor.mkExecutor}: a
     * cluster-state client with its ZooKeeper round trips, the task objects, the groupers and their
     * metrics) takes 20 ms to several hundred on a loaded node, and a re-deployment often adds several
     * executors to one worker; built one after the other they delay the routing switch by their sum.
     * So they are built concurrently (they share only thread-safe worker state), while the registrations
     * before and after stay on the caller's thread, in order. One executor failing does not stop the others.
     */
    StartResult startAll(List<ExecutorId> ranges) {
        List<ExecutorId> started = new ArrayList<>();
        Map<ExecutorId, String> failed = new LinkedHashMap<>();
        List<Prepared> prepared = new ArrayList<>();
        for (ExecutorId range : ranges) {
            try {
                prepared.add(prepare(range));
            } catch (RuntimeException e) {
                failed.put(range, "starting executor " + range + " failed: " + e);
                LOG.error("nonstop: could not start executor {}", range, e);
            }
        }
        List<CompletableFuture<Built>> built = new ArrayList<>();
        ExecutorService pool = prepared.size() > 1
            ? Executors.newFixedThreadPool(Math.min(prepared.size(), MAX_PARALLEL_BUILDS), BUILDER_THREADS) : null;
        try {
            for (Prepared p : prepared) {
                // A single executor is built on this thread; a failure lands in its future either way.
                built.add(CompletableFuture.supplyAsync(() -> build(p), pool == null ? Runnable::run : pool));
            }
            for (int i = 0; i < prepared.size(); i++) {
                Prepared p = prepared.get(i);
                try {
                    launch(p, built.get(i).join(), prepared.size());
                    started.add(p.range());
                } catch (RuntimeException | Error e) {
                    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    rollBackStart(p.id(), p.tasks(), p.component(), p.queue(), p.bp());
                    failed.put(p.range(), "starting executor " + p.range() + " failed: " + cause);
                    LOG.error("nonstop: could not start executor {}", p.range(), cause);
                }
            }
        } finally {
            if (pool != null) {
                pool.shutdown();
            }
        }
        return new StartResult(started, failed);
    }

    private Built build(Prepared p) {
        long start = System.nanoTime();
        Executor executor = Executor.mkExecutor(ws, p.id(), credentials());
        return new Built(executor, start, System.nanoTime());
    }

    private Prepared prepare(ExecutorId range) {
        List<Long> id = new ArrayList<>(range.toStorm());
        List<Integer> tasks = StormCommon.executorIdToTasks(id);
        String component = ws.getTaskToComponent().get(tasks.get(0));
        if (component == null) {
            throw new IllegalArgumentException("executor " + range + " names tasks this topology does not have");
        }
        long t0 = System.nanoTime();
        // Left-overs of an earlier stay of these tasks in this JVM would clash with the new registrations.
        MetricsJanitor.purge(ws.getMetricRegistry(), component, tasks, ws.port);
        Map<Integer, BackpressureState> bp = NonstopInternals.bpTasks(NonstopInternals.bpTracker(ws));
        JCQueue queue = newReceiveQueue(id, component, tasks);
        // The Executor constructor looks its queue up here, so the queue comes first.
        ws.executorReceiveQueueMap.put(id, queue);
        int unparked = 0;
        // Under the delivery lock, so no tuple for these tasks is parked after the parked ones are taken.
        deliveryLock.writeLock().lock();
        try {
            for (int t : tasks) {
                bp.put(t, new BackpressureState(queue, t, component, ws.getMetricRegistry()));
                ws.taskToExecutorQueue.put(t, queue);
            }
            for (AddressedTuple early : parked.drain(tasks)) {
                if (queue.tryPublish(early) || queue.tryPublishToOverflow(early)) {
                    unparked++;
                } else {
                    forwarder.countDropped(1);
                }
            }
        } finally {
            deliveryLock.writeLock().unlock();
        }
        return new Prepared(range, id, tasks, component, queue, bp, unparked, t0, System.nanoTime());
    }

    private void launch(Prepared p, Built built, int batch) {
        long t2 = System.nanoTime();
        for (int t : p.tasks()) {
            ws.localReceiveQueues.put(t, p.queue());
            retired.restore(t);
        }
        NonstopInternals.localTaskIds(ws).update(p.tasks(), List.of());
        ws.localExecutors.add(p.id());
        IRunningExecutor running;
        try {
            running = built.executor().execute();
        } catch (Exception e) {
            throw new IllegalStateException("launching its thread failed: " + e, e);
        }
        executors.updateAndGet(list -> {
            List<IRunningExecutor> next = new ArrayList<>(list == null ? List.of() : list);
            next.add(running);
            return Collections.unmodifiableList(next);
        });
        long t3 = System.nanoTime();
        // create_ms: building this Executor object; ready_ms: from the end of its preparation until it
        // was launched (its build, any wait for a build thread, and the launches of those before it).
        events.append("started", Map.ofEntries(
            Map.entry("port", ws.port), Map.entry("executor", p.range().toString()),
            Map.entry("component", p.component()), Map.entry("unparked", p.unparked()),
            Map.entry("prepare_ms", (p.t1() - p.t0()) / 1_000_000),
            Map.entry("create_ms", (built.endNs() - built.startNs()) / 1_000_000),
            Map.entry("ready_ms", (t2 - p.t1()) / 1_000_000), Map.entry("launch_ms", (t3 - t2) / 1_000_000),
            Map.entry("batch", batch), Map.entry("phase", MovePhase.STARTED.wireName())));
    }

    private void rollBackStart(List<Long> id, List<Integer> tasks, String component, JCQueue queue,
                               Map<Integer, BackpressureState> bp) {
        ws.localExecutors.remove(id);
        NonstopInternals.localTaskIds(ws).update(List.of(), tasks);
        deliveryLock.writeLock().lock();
        try {
            for (int t : tasks) {
                ws.localReceiveQueues.remove(t, queue);
                if (ws.taskToExecutorQueue.remove(t, queue)) {
                    bp.remove(t);
                }
            }
            ws.executorReceiveQueueMap.remove(id, queue);
        } finally {
            deliveryLock.writeLock().unlock();
        }
        queue.close();
        MetricsJanitor.purge(ws.getMetricRegistry(), component, tasks, ws.port);
    }

    /**
     * Phase one of a removal: the executor leaves the worker's local routing, its heartbeat and its
     * executor list, but keeps running and keeps receiving what peers still send here.
     */
    Retiring detach(ExecutorId range, long nowMs) {
        List<Long> id = range.toStorm();
        List<Integer> tasks = StormCommon.executorIdToTasks(new ArrayList<>(id));
        IRunningExecutor[] found = new IRunningExecutor[1];
        executors.updateAndGet(list -> {
            List<IRunningExecutor> next = new ArrayList<>();
            for (IRunningExecutor e : list == null ? List.<IRunningExecutor>of() : list) {
                if (ExecutorId.fromStorm(e.getExecutorId()).equals(range)) {
                    found[0] = e;
                } else {
                    next.add(e);
                }
            }
            return Collections.unmodifiableList(next);
        });
        JCQueue queue = ws.executorReceiveQueueMap.get(id);
        ws.localExecutors.remove(id);
        // Its queue stays in localReceiveQueues until the routing switch (leaveLocalRoutes): executors of
        // this worker keep sending to it locally until then, also when their views are rebuilt earlier
        // because an executor arrived.
        for (int t : tasks) {
            retired.retire(t);
        }
        NonstopInternals.localTaskIds(ws).update(List.of(), tasks);
        return new Retiring(range, id, found[0], queue, tasks, ws.getTaskToComponent().get(tasks.get(0)), nowMs);
    }

    /**
     * At the routing switch: the retiring executor's queue leaves the worker's local routes, so the next
     * routing epoch sends its tasks to their new home. Only its own queue: an instance that came back
     * in the meantime keeps its entry.
     *
     * @return whether any entry was removed
     */
    boolean leaveLocalRoutes(Retiring r) {
        boolean removed = false;
        if (r.queue() != null) {
            for (int t : r.tasks()) {
                removed |= ws.localReceiveQueues.remove(t, r.queue());
            }
        }
        return removed;
    }

    /**
     * Phase two: after the lazy-kill delay the executor stops receiving, is shut down (thread,
     * hooks, bolt cleanup, a ShellBolt's child process), its tick timers are cancelled, tuples still in
     * its queue are forwarded to the new home, and its metrics are deregistered.
     *
     * @param phase the move's phase that stops it (retired, superseded, shut down), written to the event
     */
    void finish(Retiring r, MovePhase phase) {
        lastStopMs = clock.getAsLong();
        // Normally gone since the switch; when the executor stops without one (it came back, or the worker
        // shuts down), no local sender may keep its queue.
        if (leaveLocalRoutes(r)) {
            RoutingEpoch.bump();
        }
        Map<Integer, BackpressureState> bp = NonstopInternals.bpTasks(NonstopInternals.bpTracker(ws));
        deliveryLock.writeLock().lock();
        try {
            for (int t : r.tasks()) {
                if (r.queue() != null && ws.taskToExecutorQueue.remove(t, r.queue())) {
                    bp.remove(t);
                }
            }
            if (r.queue() != null) {
                ws.executorReceiveQueueMap.remove(r.id(), r.queue());
            }
        } finally {
            deliveryLock.writeLock().unlock();
        }
        int timers = ExecutorTimers.cancel(r.range());
        boolean stopped = true;
        if (r.running() instanceof ExecutorShutdown es) {
            try {
                es.shutdown();
            } catch (RuntimeException e) {
                LOG.warn("nonstop: shutting down executor {} reported {}", r.range(), e.toString());
            }
            stopped = joinLonger(es);
        }
        int forwarded = 0;
        int leftover = 0;
        if (r.queue() != null && stopped) {
            // The executor thread is gone, so this thread may act as the queue's single consumer.
            List<AddressedTuple> rest = new ArrayList<>();
            r.queue().consume(new JCQueue.Consumer() {
                @Override
                public void accept(Object o) {
                    if (o instanceof AddressedTuple t && r.tasks().contains(t.dest)) {
                        rest.add(t);
                    }
                }

                @Override
                public void flush() {
                }
            });
            leftover = rest.size();
            forwarded = rest.isEmpty() ? 0 : forwarder.forwardAll(rest);
        }
        int metrics = MetricsJanitor.purge(ws.getMetricRegistry(), r.componentId(), r.tasks(), ws.port);
        lastStopMs = clock.getAsLong();
        events.append("stopped", Map.ofEntries(
            Map.entry("port", ws.port), Map.entry("executor", r.range().toString()),
            Map.entry("component", r.componentId()),
            Map.entry("queued", leftover), Map.entry("forwarded", forwarded), Map.entry("timers", timers),
            Map.entry("metrics", metrics), Map.entry("forwarded_total", forwarder.forwarded()),
            Map.entry("dropped_total", forwarder.dropped()), Map.entry("phase", phase.wireName())));
        LOG.info("nonstop: executor {} ({}) stopped {} ms after leaving routing; {} queued tuple(s): {} forwarded; "
                 + "{} timer(s) cancelled, {} metric(s) removed", r.range(), r.componentId(),
                 lastStopMs - r.detachedAtMs(), leftover, forwarded, timers, metrics);
    }

    /** When an executor was last being stopped (0 = never). */
    long lastStopMs() {
        return lastStopMs;
    }

    private static boolean joinLonger(ExecutorShutdown es) {
        boolean allDead = true;
        for (Utils.SmartThread t : NonstopInternals.threads(es)) {
            try {
                t.join(EXTRA_JOIN_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                LOG.warn("nonstop: thread {} still alive {} ms after shutdown; its queue is not drained",
                         t.getName(), EXTRA_JOIN_MS);
                allDead = false;
            }
        }
        return allDead;
    }

    private JCQueue newReceiveQueue(List<Long> id, String component, List<Integer> tasks) {
        Map<String, Object> tc = ws.getTopologyConf();
        return new JCQueue("receive-queue" + id, "receive-queue",
                           ObjectReader.getInt(tc.get(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE)),
                           ObjectReader.getInt(tc.get(Config.TOPOLOGY_EXECUTOR_OVERFLOW_LIMIT)),
                           ObjectReader.getInt(tc.get(Config.TOPOLOGY_PRODUCER_BATCH_SIZE)),
                           IWaitStrategy.createBackPressureWaitStrategy(tc),
                           ws.getTopologyId(), component, tasks, ws.getPort(), ws.getMetricRegistry());
    }

    private Map<String, String> credentials() {
        Credentials c = ws.getCredentials();
        return c == null || c.get_creds() == null ? new java.util.HashMap<>() : c.get_creds();
    }
}
