package io.nonstopstorm.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import io.nonstopstorm.metrics.core.DeltaTracker;
import io.nonstopstorm.metrics.core.ExecutorGrouping;
import io.nonstopstorm.metrics.core.PairKey;
import io.nonstopstorm.metrics.core.QueueLevel;
import io.nonstopstorm.metrics.core.TaskCounters;
import io.nonstopstorm.metrics.core.WindowAssembler;
import io.nonstopstorm.metrics.core.WindowInputs;
import io.nonstopstorm.metrics.cpu.ThreadCpuSampler;
import io.nonstopstorm.metrics.doc.DocumentEncoder;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import io.nonstopstorm.metrics.proc.ChildCpuSampler;
import io.nonstopstorm.metrics.proc.NodeSampler;
import io.nonstopstorm.metrics.hook.MeasuredStateSizes;
import io.nonstopstorm.wire.ExecutorId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics loop of one worker: the task hooks register their counters here; every period it samples
 * counters, threads, child processes, queues, the process and the node, and publishes one document.
 * One instance per (topology, port), so in-process local clusters (several workers per JVM) work too.
 * It starts with the first registered task and stops (removing its znode) when the last one leaves and
 * no hold is left: the worker's {@code __system} task holds it for the worker's whole life, so a worker
 * whose last spout or bolt executor migrated away (it still runs its ackers) keeps publishing.
 */
public final class WorkerMetrics {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerMetrics.class);
    private static final Map<String, WorkerMetrics> RUNNING = new HashMap<>();

    private final WorkerSetup setup;
    private final Map<Integer, TaskCounters> tasks = new ConcurrentHashMap<>();
    private final ThreadCpuSampler threadCpu;
    private final ChildCpuSampler childCpu;
    private final NodeSampler node;
    private final Double cpuMhz;
    private final DeltaTracker<Integer> emitted = new DeltaTracker<>(true);
    private final DeltaTracker<Integer> executed = new DeltaTracker<>(true);
    private final DeltaTracker<Long> pairs = new DeltaTracker<>(true);
    private final DeltaTracker<Integer> executeSamples = new DeltaTracker<>(true);
    private final DeltaTracker<Integer> executeSampleMs = new DeltaTracker<>(true);
    private ScheduledExecutorService loop;
    private long lastNanos = -1;
    private long lastProcessCpu = -1;
    private long seq;
    private int holds;

    WorkerMetrics(WorkerSetup setup) {
        this.setup = setup;
        this.threadCpu = new ThreadCpuSampler(setup.threads());
        this.childCpu = new ChildCpuSampler(setup.proc(), setup.procSelf());
        this.node = new NodeSampler(setup.proc());
        this.cpuMhz = node.cpuMhz().isPresent() ? node.cpuMhz().getAsDouble() : null;
    }

    private static String key(String topologyId, int port) {
        return topologyId + ":" + port;
    }

    /** Adds a task's counters to its worker's loop, starting the loop (built by {@code setup}) if needed. */
    public static void register(String topologyId, int port, TaskCounters counters, Supplier<WorkerSetup> setup) {
        synchronized (RUNNING) {
            running(topologyId, port, setup).tasks.put(counters.taskId(), counters);
        }
    }

    public static void unregister(String topologyId, int port, TaskCounters counters) {
        synchronized (RUNNING) {
            WorkerMetrics wm = RUNNING.get(key(topologyId, port));
            if (wm == null) {
                return;
            }
            wm.tasks.remove(counters.taskId(), counters);
            stopIfUnused(topologyId, port, wm);
        }
    }

    /** Keeps the worker's loop running (starting it if needed) until {@link #release}, tasks or not. */
    public static void hold(String topologyId, int port, Supplier<WorkerSetup> setup) {
        synchronized (RUNNING) {
            running(topologyId, port, setup).holds++;
        }
    }

    public static void release(String topologyId, int port) {
        synchronized (RUNNING) {
            WorkerMetrics wm = RUNNING.get(key(topologyId, port));
            if (wm == null) {
                return;
            }
            wm.holds = Math.max(0, wm.holds - 1);
            stopIfUnused(topologyId, port, wm);
        }
    }

    private static WorkerMetrics running(String topologyId, int port, Supplier<WorkerSetup> setup) {
        WorkerMetrics wm = RUNNING.get(key(topologyId, port));
        if (wm == null) {
            wm = new WorkerMetrics(setup.get());
            wm.start();
            RUNNING.put(key(topologyId, port), wm);
        }
        return wm;
    }

    private static void stopIfUnused(String topologyId, int port, WorkerMetrics wm) {
        if (wm.tasks.isEmpty() && wm.holds == 0) {
            RUNNING.remove(key(topologyId, port));
            wm.stop();
        }
    }

    void start() {
        setup.sink().start();
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "nonstop-metrics-" + setup.port());
            t.setDaemon(true);
            return t;
        });
        // The first tick only takes the baseline; documents follow every period.
        loop.scheduleAtFixedRate(this::safeTick, 0, setup.settings().periodSecs(), TimeUnit.SECONDS);
        LOG.info("metrics publisher started for {} port {} every {} s to {}", setup.topologyId(), setup.port(),
            setup.settings().periodSecs(), setup.settings().workerPath(setup.topologyId(), setup.port()));
    }

    void stop() {
        if (loop != null) {
            loop.shutdownNow();
            try {
                loop.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        setup.sink().close();
    }

    void addForTest(TaskCounters c) {
        tasks.put(c.taskId(), c);
    }

    private void safeTick() {
        try {
            tick();
        } catch (Throwable t) {
            // Never let the metrics plane take the worker down; the next window tries again.
            LOG.warn("metrics sample failed", t);
        }
    }

    /** One sample; returns the document published, or null for the baseline sample. */
    synchronized MetricsDocument tick() {
        long now = setup.nanoClock().getAsLong();
        long wall = setup.wallClockMs().getAsLong();
        List<TaskCounters> current = new ArrayList<>(tasks.values());
        Map<Integer, Long> emittedNow = new HashMap<>();
        Map<Integer, Long> executedNow = new HashMap<>();
        Map<Long, Long> pairsNow = new HashMap<>();
        Map<Integer, Long> samplesNow = new HashMap<>();
        Map<Integer, Long> sampleMsNow = new HashMap<>();
        Map<Integer, String> components = new HashMap<>();
        for (TaskCounters c : current) {
            components.put(c.taskId(), c.component());
            emittedNow.put(c.taskId(), c.emitted());
            executedNow.put(c.taskId(), c.executed());
            samplesNow.put(c.taskId(), c.executeSamples());
            sampleMsNow.put(c.taskId(), c.executeSampleMs());
            for (int dst = 0, n = c.destinationSlots(); dst < n; dst++) {
                long v = c.sentTo(dst);
                if (v > 0) {
                    pairsNow.put(PairKey.of(c.taskId(), dst), v);
                }
            }
        }
        Map<Integer, Long> dEmitted = emitted.update(emittedNow);
        Map<Integer, Long> dExecuted = executed.update(executedNow);
        Map<Long, Long> dPairs = pairs.update(pairsNow);
        Map<Integer, Long> dSamples = executeSamples.update(samplesNow);
        Map<Integer, Long> dSampleMs = executeSampleMs.update(sampleMsNow);

        Map<ExecutorId, ThreadCpuSampler.ExecutorThread> threads = threadCpu.sample();
        Map<ExecutorId, List<Integer>> executors = ExecutorGrouping.group(components.keySet(), threads.keySet());
        Map<ExecutorId, String> threadNames = new HashMap<>();
        Map<ExecutorId, QueueLevel> queues = new HashMap<>();
        for (ExecutorId e : executors.keySet()) {
            ThreadCpuSampler.ExecutorThread t = threads.get(e);
            if (t != null) {
                threadNames.put(e, t.threadName());
            }
            QueueLevel q = setup.queues().level(e);
            if (q != null) {
                queues.put(e, q);
            }
        }
        Map<ExecutorId, ChildCpuSampler.ChildCpu> children = childCpu.sample(threadNames);
        long processCpu = setup.processCpuNanos().getAsLong();
        NodeSampler.NodeWindow nodeWindow = node.sample();

        long previous = lastNanos;
        long previousCpu = lastProcessCpu;
        lastNanos = now;
        lastProcessCpu = processCpu;
        if (previous < 0 || now <= previous) {
            return null;
        }
        seq++;
        MetricsDocument doc = WindowAssembler.assemble(new WindowInputs(
            setup.topologyId(), setup.settings().host(), setup.port(), setup.pid(), setup.startedAtMs(),
            wall, now - previous, seq, setup.settings().periodSecs(),
            components, executors, dEmitted, dExecuted, dPairs, threads, children,
            setup.settings().clockTicksPerSecond(), queues,
            processCpu >= 0 && previousCpu >= 0 ? Math.max(0, processCpu - previousCpu) : null,
            nodeWindow, cpuMhz, setup.components(), dSamples, dSampleMs, MeasuredStateSizes.THIS_WORKER.snapshot()));
        setup.sink().publish(DocumentEncoder.encode(doc));
        return doc;
    }
}
