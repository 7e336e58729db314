package io.nonstopstorm.scheduling.metricsplane;

import io.nonstopstorm.scheduling.model.NodeReading;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * One round's view of the metrics plane, from the accepted documents of every topology. Pure.
 *
 * <p>CPU in Hz, as the Aniello schedulers need it: cores × the node's {@code cpu_mhz} × 10⁶ (a fallback
 * clock when a kernel does not report it; without either, the figure is left out). Nodes are keyed by
 * the host the workers advertise; the newest document from a host describes the node.
 */
public final class MetricsSnapshot {

    private static final double HZ_PER_MHZ = 1e6;

    private final Map<String, List<WorkerDocument>> byTopology = new TreeMap<>();
    private final Map<String, WorkerDocument> newestByHost = new TreeMap<>();
    private final OptionalDouble fallbackMhz;

    public MetricsSnapshot(Collection<WorkerDocument> docs, OptionalDouble fallbackMhz) {
        this.fallbackMhz = fallbackMhz;
        for (WorkerDocument d : docs) {
            byTopology.computeIfAbsent(d.topologyId(), k -> new ArrayList<>()).add(d);
            newestByHost.merge(d.host(), d, (a, b) -> b.windowEndMs() > a.windowEndMs() ? b : a);
        }
    }

    public static MetricsSnapshot empty() {
        return new MetricsSnapshot(List.of(), OptionalDouble.empty());
    }

    public boolean hasTopology(String topologyId) {
        return byTopology.containsKey(topologyId);
    }

    /** The accepted documents of a topology's workers (one per worker), in no particular order. */
    public List<WorkerDocument> documents(String topologyId) {
        return List.copyOf(byTopology.getOrDefault(topologyId, List.of()));
    }

    /**
     * Executor-to-executor tuples/s of a topology, or empty when no worker of it published. Tasks are
     * mapped to the executors the documents list; a pair whose destination no document lists (its worker
     * has not published) is left out.
     */
    public Optional<TrafficMatrix> traffic(String topologyId) {
        List<WorkerDocument> docs = byTopology.get(topologyId);
        if (docs == null) {
            return Optional.empty();
        }
        Map<Integer, ExecutorId> executorOfTask = new HashMap<>();
        for (WorkerDocument d : docs) {
            for (WorkerDocument.ExecutorCpu e : d.executors()) {
                // long: an end of Integer.MAX_VALUE must not wrap (the parser bounds spans anyway)
                for (long t = e.id().start(); t <= e.id().end(); t++) {
                    executorOfTask.put((int) t, e.id());
                }
            }
        }
        TrafficMatrix.Builder b = TrafficMatrix.builder();
        for (WorkerDocument d : docs) {
            for (WorkerDocument.TaskFlow f : d.traffic()) {
                ExecutorId from = executorOfTask.get(f.srcTask());
                ExecutorId to = executorOfTask.get(f.dstTask());
                if (from != null && to != null) {
                    b.add(from, to, f.tuplesPerSecond());
                }
            }
        }
        return Optional.of(b.build());
    }

    /** CPU of each measured executor of a topology, in Hz. */
    public Map<ExecutorId, Double> executorHz(String topologyId) {
        Map<ExecutorId, Double> out = new TreeMap<>();
        eachExecutorHz(topologyId, (d, id, hz) -> out.put(id, hz));
        return out;
    }

    /** A topology's measured executor CPU per host, in Hz. */
    public Map<String, Double> topologyHzByHost(String topologyId) {
        Map<String, Double> out = new TreeMap<>();
        eachExecutorHz(topologyId, (d, id, hz) -> out.merge(d.host(), hz, Double::sum));
        return out;
    }

    /** What {@link #eachExecutorHz} hands over: an executor's CPU in Hz and the document that measured it. */
    private interface ExecutorHz {
        void accept(WorkerDocument doc, ExecutorId id, double hz);
    }

    /** Each executor of a topology whose CPU and whose node's clock rate were measured, in Hz. */
    private void eachExecutorHz(String topologyId, ExecutorHz sink) {
        for (WorkerDocument d : byTopology.getOrDefault(topologyId, List.of())) {
            OptionalDouble hzPerCore = hzPerCore(d);
            for (WorkerDocument.ExecutorCpu e : d.executors()) {
                if (hzPerCore.isPresent() && e.cores().isPresent()) {
                    sink.accept(d, e.id(), e.cores().getAsDouble() * hzPerCore.getAsDouble());
                }
            }
        }
    }

    /** Whole-node CPU in use per host, in Hz, with the end of the window it was measured in. */
    public Map<String, NodeReading> nodeReadings() {
        Map<String, NodeReading> out = new TreeMap<>();
        newestByHost.forEach((host, d) -> d.node().busyCores().ifPresent(busy -> out.put(host,
                new NodeReading(d.node().cpuCount(), busy, d.node().netBytesPerSecond(), d.windowEndMs()))));
        return out;
    }

    /** Whole-node CPU in use per host in Hz (hosts whose clock or busy figure is unknown are left out). */
    public Map<String, Double> busyHzByHost() {
        Map<String, Double> out = new TreeMap<>();
        newestByHost.forEach((host, d) -> {
            OptionalDouble hzPerCore = hzPerCore(d);
            if (hzPerCore.isPresent() && d.node().busyCores().isPresent()) {
                out.put(host, d.node().busyCores().getAsDouble() * hzPerCore.getAsDouble());
            }
        });
        return out;
    }

    /** CPU a host has in all, in Hz: its {@code cpu_count} × the core clock (hosts without a clock are left out). */
    public Map<String, Double> capacityHzByHost() {
        Map<String, Double> out = new TreeMap<>();
        newestByHost.forEach((host, d) -> hzPerCore(d).ifPresent(hz -> {
            if (d.node().cpuCount() > 0) {
                out.put(host, d.node().cpuCount() * hz);
            }
        }));
        return out;
    }

    /** When each host's node figures were measured. */
    public Map<String, Long> measuredAtByHost() {
        Map<String, Long> out = new TreeMap<>();
        newestByHost.forEach((host, d) -> out.put(host, d.windowEndMs()));
        return out;
    }

    private OptionalDouble hzPerCore(WorkerDocument d) {
        OptionalDouble mhz = d.node().cpuMhz().isPresent() ? d.node().cpuMhz() : fallbackMhz;
        return mhz.isPresent() ? OptionalDouble.of(mhz.getAsDouble() * HZ_PER_MHZ) : OptionalDouble.empty();
    }
}
