package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a single-topology core over several topologies in input order, the way Nimbus would meet them:
 * each topology sees the slots of the ones placed before it as taken and their CPU load and
 * cross-node traffic as background on their nodes.
 */
final class SequentialPlanner implements Planner {

    /** A scheduling core for one topology on a cluster whose other work is already accounted for. */
    @FunctionalInterface
    interface Core {
        Outcome<TopologyPlan> place(TopologyWorkload workload, ClusterModel cluster, SchedulerParams params);
    }

    private final String name;
    private final String summary;
    private final Core core;

    SequentialPlanner(String name, String summary, Core core) {
        this.name = name;
        this.summary = summary;
        this.core = core;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String summary() {
        return summary;
    }

    @Override
    public Outcome<PlanningResult> plan(PlanningInput input) {
        ClusterModel cluster = input.cluster();
        Map<String, Placement> placements = new LinkedHashMap<>();
        Map<String, List<String>> notes = new LinkedHashMap<>();
        for (TopologyWorkload w : input.topologies()) {
            Outcome<TopologyPlan> o = core.place(w, cluster, input.params());
            if (o instanceof Outcome.Failure<TopologyPlan> f) {
                return Outcome.failure("topology " + w.id() + ": " + f.reason());
            }
            TopologyPlan plan = o.orElseThrow();
            placements.put(w.id(), plan.placement());
            notes.put(w.id(), plan.notes());
            cluster = withPlaced(cluster, w, plan.placement());
        }
        return Outcome.success(new PlanningResult(placements, notes));
    }

    /** The cluster as the next topology sees it once {@code w} runs on {@code placement}. */
    static ClusterModel withPlaced(ClusterModel cluster, TopologyWorkload w, Placement placement) {
        Map<String, Double> cpu = new HashMap<>();
        for (Map.Entry<ExecutorId, SlotId> e : placement.asMap().entrySet()) {
            cpu.merge(e.getValue().nodeId(), w.loads().of(e.getKey()), Double::sum);
        }
        Map<String, Double> bandwidth = new HashMap<>();
        for (Map.Entry<TrafficMatrix.Flow, Double> f : w.traffic().flows().entrySet()) {
            String a = placement.nodeOf(f.getKey().from()).orElse(null);
            String b = placement.nodeOf(f.getKey().to()).orElse(null);
            if (a != null && b != null && !a.equals(b)) {
                bandwidth.merge(a, f.getValue(), Double::sum);
                bandwidth.merge(b, f.getValue(), Double::sum);
            }
        }
        List<Node> nodes = new ArrayList<>();
        for (Node n : cluster.nodes()) {
            nodes.add(n.withBackground(n.cpuBackground() + cpu.getOrDefault(n.id(), 0.0),
                    n.bandwidthBackground() + bandwidth.getOrDefault(n.id(), 0.0)));
        }
        return cluster.withNodes(nodes).withOwnedSlots(w.id(), placement.usedSlots());
    }
}
