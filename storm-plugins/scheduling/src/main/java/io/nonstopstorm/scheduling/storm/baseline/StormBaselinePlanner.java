package io.nonstopstorm.scheduling.storm.baseline;

import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.offline.Planner;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.PlanningResult;
import io.nonstopstorm.scheduling.offline.SchedulerParams;
import io.nonstopstorm.scheduling.offline.TopologyWorkload;
import io.nonstopstorm.scheduling.storm.StormModelMapper;
import io.nonstopstorm.wire.ExecutorId;
import org.apache.storm.Config;
import org.apache.storm.DaemonConfig;
import org.apache.storm.daemon.Acker;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.DefaultScheduler;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.IScheduler;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.resource.ResourceAwareScheduler;
import org.apache.storm.scheduler.resource.normalization.NormalizedResources;
import org.apache.storm.scheduler.resource.normalization.ResourceMetrics;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.Utils;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Storm's own schedulers as baselines, run unchanged on real Storm {@link Cluster} / {@link Topologies}
 * objects built from the offline model: {@link DefaultScheduler} (the even scheduler) or the
 * {@link ResourceAwareScheduler}. All topologies are scheduled together in one round from an empty
 * cluster, as at submission; a current placement is ignored.
 *
 * <p>Mapping: a supervisor per node offering the ports no foreign topology holds; components without
 * an upstream become spouts, the others bolts with a shuffle grouping from each upstream (Storm's
 * schedulers only look at the component graph, not at groupings); {@code __}-prefixed components stay
 * executors only, as Storm's system components. For the resource-aware scheduler a node offers
 * {@code cpu_capacity − cpu_background} CPU and its memory (unbounded ones a huge figure), and every
 * executor of a component requests the component's mean executor load and its memory figure: Storm
 * resources are per component, not per executor (system components: see
 * {@link #systemComponentResources}).
 */
public final class StormBaselinePlanner implements Planner {

    /** Stands in for "unbounded" where Storm needs a number. */
    private static final double UNBOUNDED = 1e12;

    public enum Kind {
        DEFAULT("storm-default", "Storm's DefaultScheduler (even scheduler) on real Storm Cluster objects"),
        RESOURCE_AWARE("storm-ras", "Storm's ResourceAwareScheduler (strategy from params.storm_ras) on real Storm "
                + "Cluster objects");

        private final String plannerName;
        private final String summary;

        Kind(String plannerName, String summary) {
            this.plannerName = plannerName;
            this.summary = summary;
        }
    }

    private final Kind kind;

    public StormBaselinePlanner(Kind kind) {
        this.kind = kind;
    }

    @Override
    public String name() {
        return kind.plannerName;
    }

    @Override
    public String summary() {
        return kind.summary;
    }

    @Override
    public Outcome<PlanningResult> plan(PlanningInput input) {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        SchedulerParams.StormRas ras = input.params().stormRas();
        conf.put(DaemonConfig.SCHEDULING_TIMEOUT_SECONDS_PER_TOPOLOGY, ras.timeoutSeconds());
        conf.put(DaemonConfig.RESOURCE_AWARE_SCHEDULER_MAX_STATE_SEARCH, Math.max(ras.maxStateSearch(),
                ((Number) conf.getOrDefault(DaemonConfig.RESOURCE_AWARE_SCHEDULER_MAX_STATE_SEARCH, 0)).intValue()));
        Map<String, TopologyDetails> details = new LinkedHashMap<>();
        for (TopologyWorkload w : input.topologies()) {
            details.put(w.id(), topologyDetails(w, input.params().stormRas(), conf));
        }
        Topologies topologies = new Topologies(details);
        Cluster cluster = new Cluster(new OfflineNimbus(), new ResourceMetrics(new StormMetricsRegistry()),
                supervisors(input), new HashMap<>(), topologies, conf);
        IScheduler scheduler = kind == Kind.DEFAULT ? new DefaultScheduler() : new ResourceAwareScheduler();
        scheduler.prepare(conf, new StormMetricsRegistry());
        try {
            scheduler.schedule(topologies, cluster);
        } finally {
            scheduler.cleanup(); // the resource-aware scheduler holds a thread pool
        }
        Map<String, Placement> placements = new LinkedHashMap<>();
        Map<String, List<String>> notes = new LinkedHashMap<>();
        for (TopologyWorkload w : input.topologies()) {
            Placement p = StormModelMapper.placement(cluster, w.id());
            String status = cluster.getStatusMap().get(w.id());
            if (p.size() < w.topology().executors().size()) {
                return Outcome.failure(name() + " left " + (w.topology().executors().size() - p.size())
                        + " executor(s) of topology " + w.id() + " unassigned"
                        + (status == null ? "" : ": " + status));
            }
            placements.put(w.id(), p);
            notes.put(w.id(), status == null ? List.of() : List.of("storm status: " + status));
        }
        return Outcome.success(new PlanningResult(placements, notes));
    }

    private static Map<String, SupervisorDetails> supervisors(PlanningInput input) {
        Map<String, SupervisorDetails> supervisors = new LinkedHashMap<>();
        for (Node n : input.cluster().nodes()) {
            List<Integer> ports = new ArrayList<>();
            for (SlotId s : n.slots()) {
                if (input.cluster().ownerOf(s).isEmpty()) {
                    ports.add(s.port());
                }
            }
            double cpu = Double.isInfinite(n.cpuCapacity()) ? UNBOUNDED : Math.max(0, n.cpuCapacity() - n.cpuBackground());
            double memory = input.nodeMemoryMb().getOrDefault(n.id(), UNBOUNDED);
            Map<String, Double> resources = new HashMap<>();
            resources.put(Config.SUPERVISOR_CPU_CAPACITY, cpu);
            resources.put(Config.SUPERVISOR_MEMORY_CAPACITY_MB, memory);
            supervisors.put(n.id(), new SupervisorDetails(n.id(), n.id(), null, ports,
                    NormalizedResources.RESOURCE_NAME_NORMALIZER.normalizedResourceMap(resources)));
        }
        return supervisors;
    }

    private static TopologyDetails topologyDetails(TopologyWorkload w, SchedulerParams.StormRas ras,
                                                   Map<String, Object> clusterConf) {
        TopologyModel t = w.topology();
        TopologyBuilder builder = new TopologyBuilder();
        for (String c : t.graph().components()) {
            if (Utils.isSystemId(c)) {
                continue;
            }
            List<String> inputs = t.graph().upstreamOf(c).stream().filter(u -> !Utils.isSystemId(u)).toList();
            int parallelism = Math.max(1, t.executorsOf(c).size());
            double cpu = meanLoad(w, c);
            double memory = w.memoryMb().getOrDefault(c, ras.defaultMemoryMb());
            if (inputs.isEmpty()) {
                builder.setSpout(c, new PlaceholderComponents.Spout(), parallelism).setCPULoad(cpu).setMemoryLoad(memory);
            } else {
                BoltDeclarer bolt = builder.setBolt(c, new PlaceholderComponents.Bolt(), parallelism);
                inputs.forEach(bolt::shuffleGrouping);
                bolt.setCPULoad(cpu).setMemoryLoad(memory);
            }
        }
        Map<ExecutorDetails, String> executors = new HashMap<>();
        for (var e : t.executors()) {
            executors.put(StormModelMapper.details(e.id()), e.component());
        }
        Map<String, Object> conf = new HashMap<>(clusterConf);
        conf.put(Config.TOPOLOGY_NAME, t.id());
        conf.put(Config.TOPOLOGY_SUBMITTER_USER, "planner");
        conf.put(Config.TOPOLOGY_PRIORITY, 0);
        conf.put(Config.TOPOLOGY_SCHEDULER_STRATEGY, ras.strategy());
        conf.put(Config.TOPOLOGY_WORKER_MAX_HEAP_SIZE_MB, ras.workerMaxHeapMb() > 0 ? ras.workerMaxHeapMb() : Double.MAX_VALUE);
        conf.put(Config.TOPOLOGY_RAS_CONSTRAINT_MAX_STATE_SEARCH, ras.maxStateSearch());
        systemComponentResources(w, ras, conf);
        return new TopologyDetails(t.id(), conf, builder.createTopology(), t.numWorkers(), executors, 0, "planner");
    }

    /**
     * Storm charges its system components (not in the {@code StormTopology}) from topology-level settings:
     * the acker's own keys, one default for the others. They get their mean measured load.
     */
    private static void systemComponentResources(TopologyWorkload w, SchedulerParams.StormRas ras, Map<String, Object> conf) {
        double otherLoad = 0;
        int otherCount = 0;
        for (String c : w.topology().graph().components()) {
            if (!Utils.isSystemId(c) || w.topology().executorsOf(c).isEmpty()) {
                continue;
            }
            double memory = w.memoryMb().getOrDefault(c, ras.defaultMemoryMb());
            if (c.equals(Acker.ACKER_COMPONENT_ID)) {
                conf.put(Config.TOPOLOGY_ACKER_CPU_PCORE_PERCENT, meanLoad(w, c));
                conf.put(Config.TOPOLOGY_ACKER_RESOURCES_ONHEAP_MEMORY_MB, memory);
            } else {
                otherLoad += w.loads().sum(w.topology().executorsOf(c));
                otherCount += w.topology().executorsOf(c).size();
                conf.put(Config.TOPOLOGY_COMPONENT_RESOURCES_ONHEAP_MEMORY_MB, memory);
            }
        }
        if (otherCount > 0) {
            conf.put(Config.TOPOLOGY_COMPONENT_CPU_PCORE_PERCENT, otherLoad / otherCount);
        }
    }

    private static double meanLoad(TopologyWorkload w, String component) {
        List<ExecutorId> executors = w.topology().executorsOf(component);
        return executors.isEmpty() ? 0 : w.loads().sum(executors) / executors.size();
    }
}
