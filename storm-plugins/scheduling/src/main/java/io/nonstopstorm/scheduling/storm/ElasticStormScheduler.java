package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.core.ElasticAllocator;
import io.nonstopstorm.scheduling.core.ElasticLoadClass;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Executor;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.NodeReading;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.TopologyDetails;

/**
 * The Elastic Allocator (SOSE'14 GMA, {@link ElasticAllocator}) as a Nimbus plugin. It places a topology
 * whose executors are unassigned (a new topology, or one that lost workers) and leaves a placed one alone.
 *
 * <p>Nodes, in cores and bytes/s, from the metrics plane's {@code node} section: CPU capacity =
 * {@code cpu_count}, CPU background = {@code cpu_busy_cores}, bandwidth background = the larger of
 * received and sent bytes/s over the non-loopback interfaces. A node's class comes from the larger
 * utilisation: light below 40 %, moderate below 80 %, heavy from 80 % (heavy nodes get no new work).
 * A node without a fresh reading (nothing of ours runs there yet) counts as idle, with
 * {@code nonstop.node.cores} (its {@code supervisor.scheduler.meta}, else Nimbus's conf) or the mean of
 * the measured nodes, else one core. Link capacity is {@code nonstop.node.bandwidth.bytes.per.sec}
 * (same places; default unbounded: bandwidth then never makes a node heavy).
 *
 * <p>A topology being placed has no traffic measured yet, so bandwidth enters as background only, and
 * executors need CPU as declared: {@code nonstop.elastic.executor.cores} (map component → cores per
 * executor), others {@code nonstop.elastic.executor.cores.default} (default 0.1, so executors spread
 * over the least used nodes rather than pile onto the first).
 *
 * <p>Topology config: {@code nonstop.scheduler: elastic}; {@code nonstop.elastic.cpu.limit} and
 * {@code nonstop.elastic.bandwidth.limit} (D_CPU, D_BW, default 0.9 as the offline planner's);
 * {@code nonstop.elastic.time.budget.ms} (t_max, default 1000).
 */
public class ElasticStormScheduler extends ConfiguredScheduler {

    public static final String NAME = "elastic";
    public static final String CPU_LIMIT_KEY = "nonstop.elastic.cpu.limit";
    public static final String BANDWIDTH_LIMIT_KEY = "nonstop.elastic.bandwidth.limit";
    public static final String TIME_BUDGET_KEY = "nonstop.elastic.time.budget.ms";
    public static final String EXECUTOR_CORES_KEY = "nonstop.elastic.executor.cores";
    public static final String DEFAULT_EXECUTOR_CORES_KEY = "nonstop.elastic.executor.cores.default";
    public static final String NODE_CORES_KEY = "nonstop.node.cores";
    public static final String NODE_BANDWIDTH_KEY = "nonstop.node.bandwidth.bytes.per.sec";
    static final double DEFAULT_EXECUTOR_CORES = 0.1;

    private final SchedulingMetrics metrics;
    private final LongSupplier nanoClock;

    public ElasticStormScheduler() {
        this(SchedulingMetrics.none(), System::nanoTime);
    }

    public ElasticStormScheduler(SchedulingMetrics metrics, LongSupplier nanoClock) {
        super(NAME, Set.of("elastic-allocator"), true);
        this.metrics = metrics;
        this.nanoClock = nanoClock;
    }

    @Override
    protected Outcome<Step> plan(TopologyDetails td, Cluster cluster) {
        if (cluster.getUnassignedExecutors(td).isEmpty()) {
            return Outcome.success(Step.keep("all executors placed"));
        }
        TopologyConf conf = new TopologyConf(td.getConf());
        ElasticAllocator.Params params = new ElasticAllocator.Params(
                positive(conf, CPU_LIMIT_KEY, 0.9), positive(conf, BANDWIDTH_LIMIT_KEY, 0.9),
                (long) (conf.nonNegative(TIME_BUDGET_KEY, 1000) * 1_000_000));
        TopologyModel topology = StormModelMapper.topology(td);
        ClusterModel model = nodes(cluster);
        ExecutorLoads demand = demand(topology, conf);
        return new ElasticAllocator(params, nanoClock)
                .place(topology, model, demand, TrafficMatrix.empty(), StormModelMapper.placement(cluster, td.getId()))
                .map(r -> Step.apply(r.placement(), String.format("elastic allocation on %d node(s); node classes %s%s",
                        r.placement().usedNodes().size(), classes(model),
                        r.spreadBestEffort().isEmpty() ? "" : "; spread best-effort: " + r.spreadBestEffort())));
    }

    /** The supervisors as the allocator sees them: cores and bytes/s, measured where the metrics plane says. */
    private ClusterModel nodes(Cluster cluster) {
        Map<String, NodeReading> readings = metrics.nodeReadings();
        double meanCores = readings.values().stream().mapToDouble(NodeReading::cpuCores).average().orElse(1);
        Map<String, SupervisorDetails> sups = cluster.getSupervisors();
        ClusterModel bare = StormModelMapper.cluster(cluster, s -> 0.0, s -> 0.0);
        List<Node> nodes = new ArrayList<>();
        for (Node n : bare.nodes()) {
            SupervisorDetails sup = sups.get(n.id());
            NodeReading r = readings.get(n.id());
            double cores = r != null ? r.cpuCores() : nodeSetting(sup, NODE_CORES_KEY, meanCores);
            nodes.add(new Node(n.id(), n.ports(), cores, nodeSetting(sup, NODE_BANDWIDTH_KEY, Double.POSITIVE_INFINITY),
                    r != null ? r.busyCores() : 0, r != null ? r.netBytesPerSecond() : 0));
        }
        return bare.withNodes(nodes);
    }

    private static ExecutorLoads demand(TopologyModel topology, TopologyConf conf) {
        double fallback = conf.nonNegative(DEFAULT_EXECUTOR_CORES_KEY, DEFAULT_EXECUTOR_CORES);
        Map<String, Object> perComponent = conf.map(EXECUTOR_CORES_KEY);
        TopologyConf components = new TopologyConf(perComponent == null ? Map.of() : perComponent);
        Map<ExecutorId, Double> out = new HashMap<>();
        for (Executor e : topology.executors()) {
            out.put(e.id(), components.nonNegative(e.component(), fallback));
        }
        return ExecutorLoads.of(out);
    }

    private static Map<String, ElasticLoadClass> classes(ClusterModel model) {
        Map<String, ElasticLoadClass> out = new LinkedHashMap<>();
        for (Node n : model.nodes()) {
            out.put(n.id(), ElasticLoadClass.of(Math.max(share(n.cpuBackground(), n.cpuCapacity()),
                    share(n.bandwidthBackground(), n.bandwidthCapacity()))));
        }
        return out;
    }

    private static double share(double used, double capacity) {
        return Double.isInfinite(capacity) || capacity <= 0 ? 0 : used / capacity;
    }

    private static double positive(TopologyConf conf, String key, double fallback) {
        double v = conf.nonNegative(key, fallback);
        if (v <= 0) {
            throw new IllegalArgumentException(key + " must be > 0, got " + v);
        }
        return v;
    }
}
