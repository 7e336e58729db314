package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.metricsplane.DocumentCheck;
import io.nonstopstorm.scheduling.metricsplane.MetricsSnapshot;
import io.nonstopstorm.scheduling.metricsplane.NodeLoadHistory;
import io.nonstopstorm.scheduling.metricsplane.RawDocument;
import io.nonstopstorm.scheduling.metricsplane.WorkerDocument;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.LoadSample;
import io.nonstopstorm.scheduling.model.NodeReading;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ZkPaths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SchedulingMetrics} from the metrics plane: the documents the workers publish to ZooKeeper
 * (storm-plugins/metrics/SCHEMA.md), read once per {@link #refresh}.
 *
 * <ul>
 *   <li>traffic: the task-pair tuple rates of a topology's documents, summed per executor pair;</li>
 *   <li>executor loads: executor thread CPU plus its child processes, in Hz = cores × the node's
 *       {@code cpu_mhz} × 10⁶ (the unit of {@code nonstop.node.capacity} for the Aniello scheduler);</li>
 *   <li>background load of a node: its whole-node CPU in Hz minus the topology's own executors there;</li>
 *   <li>node capacity: its {@code cpu_count} × {@code cpu_mhz} × 10⁶ Hz (the default of
 *       {@code nonstop.node.capacity});</li>
 *   <li>node load history: one sample per node and window, kept {@value #HISTORY_MINUTES} minutes and at
 *       most {@value #MAX_SAMPLES_PER_NODE} samples per node.</li>
 * </ul>
 * A document that is malformed (an executor span outside {@code ExecutorSpans} included), of an unknown
 * version, misplaced, naming an executor its topology does not have, or stale (older than three periods) is
 * skipped for the round with one WARN line per written version of the znode. Without documents a topology has no traffic, so the
 * online scheduler keeps its placement. ZooKeeper trouble means no measurements this round, never an
 * exception. Nimbus conf {@code nonstop.node.cpu.mhz} is the clock for nodes whose kernel does not report one.
 */
public final class ZkSchedulingMetrics implements SchedulingMetrics {

    public static final String FALLBACK_MHZ_KEY = "nonstop.node.cpu.mhz";
    static final int HISTORY_MINUTES = 10;
    static final int MAX_SAMPLES_PER_NODE = 256;
    private static final long WARN_EVERY_MS = 30_000;
    private static final Logger LOG = LoggerFactory.getLogger(ZkSchedulingMetrics.class);

    /** Where the documents come from: ZooKeeper in Nimbus, a list in tests. */
    @FunctionalInterface
    public interface Source {
        List<RawDocument> read() throws Exception;
    }

    private final Source source;
    private final String root;
    private final LongSupplier clockMillis;
    private final OptionalDouble fallbackMhz;
    private final NodeLoadHistory history = new NodeLoadHistory(HISTORY_MINUTES * 60_000L, MAX_SAMPLES_PER_NODE);
    private final Map<String, Long> loggedVersion = new HashMap<>();
    /** znode path → why its document was refused, for the last refresh */
    private Map<String, String> refused = Map.of();
    private MetricsSnapshot snapshot = MetricsSnapshot.empty();
    private Map<String, String> hostOfNode = Map.of();
    private long lastWarnMs = Long.MIN_VALUE / 2;

    /**
     * @param source      the documents
     * @param root        the metrics root the documents must sit under
     * @param clockMillis wall clock (document windows are wall-clock times)
     * @param fallbackMhz core clock for documents without {@code cpu_mhz}
     */
    public ZkSchedulingMetrics(Source source, String root, LongSupplier clockMillis, OptionalDouble fallbackMhz) {
        this.source = source;
        this.root = root;
        this.clockMillis = clockMillis;
        this.fallbackMhz = fallbackMhz;
    }

    public static OptionalDouble fallbackMhz(Map<String, Object> conf) {
        Object v = conf.get(FALLBACK_MHZ_KEY);
        if (v == null) {
            return OptionalDouble.empty();
        }
        double mhz = new TopologyConf(conf).nonNegative(FALLBACK_MHZ_KEY, 0);
        return mhz > 0 ? OptionalDouble.of(mhz) : OptionalDouble.empty();
    }

    @Override
    public void refresh(Map<String, String> hostOfNode) {
        refresh(hostOfNode, Map.of());
    }

    @Override
    public void refresh(Map<String, String> hostOfNode, Map<String, Set<ExecutorId>> executorsOf) {
        this.hostOfNode = Map.copyOf(hostOfNode);
        long now = clockMillis.getAsLong();
        List<RawDocument> raw;
        try {
            raw = source.read();
        } catch (Exception e) {
            snapshot = MetricsSnapshot.empty();
            refused = Map.of();
            if (now - lastWarnMs > WARN_EVERY_MS) {
                lastWarnMs = now;
                LOG.warn("metrics plane unreadable ({}); schedulers go without measurements this round", e.toString());
            }
            return;
        }
        List<WorkerDocument> docs = new ArrayList<>();
        Map<String, String> refusedNow = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (RawDocument r : raw) {
            seen.add(r.path());
            Outcome<WorkerDocument> checked = DocumentCheck.accept(r, root, now, DocumentCheck.DEFAULT_STALE_AFTER_PERIODS,
                                                                      executorsOf);
            if (checked instanceof Outcome.Failure<WorkerDocument> f) {
                refusedNow.put(r.path(), f.reason());
                if (!Long.valueOf(r.version()).equals(loggedVersion.put(r.path(), r.version()))) {
                    LOG.warn("skipping metrics document {}: {}", r.path(), f.reason());
                }
            } else {
                loggedVersion.remove(r.path());
                docs.add(checked.orElseThrow());
            }
        }
        loggedVersion.keySet().retainAll(seen);
        refused = refusedNow;
        snapshot = new MetricsSnapshot(docs, fallbackMhz);
        Map<String, Double> busy = snapshot.busyHzByHost();
        Map<String, Long> at = snapshot.measuredAtByHost();
        this.hostOfNode.forEach((node, host) -> {
            if (busy.containsKey(host)) {
                history.add(node, new LoadSample(at.get(host), busy.get(host)));
            }
        });
        history.prune(now);
    }

    @Override
    public Optional<TrafficMatrix> traffic(String topologyId) {
        return snapshot.traffic(topologyId);
    }

    @Override
    public ExecutorLoads executorLoads(String topologyId) {
        return ExecutorLoads.of(snapshot.executorHz(topologyId));
    }

    @Override
    public Map<String, Double> backgroundLoad(String topologyId) {
        Map<String, Double> busy = snapshot.busyHzByHost();
        Map<String, Double> own = snapshot.topologyHzByHost(topologyId);
        Map<String, Double> out = new TreeMap<>();
        hostOfNode.forEach((node, host) -> {
            if (busy.containsKey(host)) {
                out.put(node, Math.max(0, busy.get(host) - own.getOrDefault(host, 0.0)));
            }
        });
        return out;
    }

    @Override
    public Map<String, WorkerDocument> workerDocuments(String topologyId) {
        Map<String, WorkerDocument> out = new TreeMap<>();
        snapshot.documents(topologyId).forEach(d -> out.put(d.host() + ":" + d.port(), d));
        return out;
    }

    @Override
    public Optional<String> refusedDocument(String topologyId, String host, int port) {
        return Optional.ofNullable(refused.get(ZkPaths.metricsWorker(root, topologyId, host, port)));
    }

    @Override
    public Map<String, List<LoadSample>> nodeLoadHistory() {
        return history.snapshot();
    }

    @Override
    public Map<String, Double> nodeCapacity() {
        return byNode(snapshot.capacityHzByHost());
    }

    @Override
    public Map<String, NodeReading> nodeReadings() {
        return byNode(snapshot.nodeReadings());
    }

    /** Per-host values re-keyed by the Storm node on that host; nodes without a value are left out. */
    private <T> Map<String, T> byNode(Map<String, T> byHost) {
        Map<String, T> out = new TreeMap<>();
        hostOfNode.forEach((node, host) -> {
            if (byHost.containsKey(host)) {
                out.put(node, byHost.get(host));
            }
        });
        return out;
    }
}
