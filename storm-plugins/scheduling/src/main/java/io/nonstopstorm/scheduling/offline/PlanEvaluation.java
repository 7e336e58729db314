package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.core.InterNodeTraffic;
import io.nonstopstorm.scheduling.core.PlanValidator;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Measures a planning result against its input, whichever scheduler produced it: traffic crossing
 * nodes and slots, slots and nodes used, node CPU and bandwidth, and every constraint the plan breaks
 * ({@link PlanValidator} per topology, with the other planned topologies counted as background, plus
 * node bandwidth capacity).
 */
public final class PlanEvaluation {

    /**
     * @param moved executors on another slot than in the current placement, or -1 without one
     */
    public record TopologyMetrics(String id, int executors, int placed, int workersRequested, int slotsUsed,
                                  int nodesUsed, double totalTraffic, double interNodeTraffic,
                                  double interSlotTraffic, int moved, List<String> violations) {
        public TopologyMetrics {
            violations = List.copyOf(violations);
        }
    }

    /**
     * @param cpuPlanned       CPU of the planned executors on the node
     * @param bandwidthPlanned tuples/s of planned traffic entering or leaving the node
     * @param utilisation      (background + planned CPU) / capacity; NaN for an unbounded node
     */
    public record NodeMetrics(String id, int slots, int slotsUsed, double cpuCapacity, double cpuBackground,
                              double cpuPlanned, double utilisation, double bandwidthCapacity,
                              double bandwidthBackground, double bandwidthPlanned) {
    }

    public record Evaluation(List<TopologyMetrics> topologies, List<NodeMetrics> nodes, double totalTraffic,
                             double interNodeTraffic, double interSlotTraffic, int slotsUsed, int nodesUsed,
                             List<String> violations) {
        public Evaluation {
            topologies = List.copyOf(topologies);
            nodes = List.copyOf(nodes);
            violations = List.copyOf(violations);
        }
    }

    private PlanEvaluation() {
    }

    public static Evaluation evaluate(PlanningInput input, PlanningResult result) {
        ClusterModel cluster = input.cluster();
        Map<String, Double> cpuOnNode = new HashMap<>();
        Map<String, Double> bandwidthOnNode = new HashMap<>();
        Map<String, Integer> slotsOnNode = new HashMap<>();
        Set<SlotId> allUsed = new HashSet<>();
        for (TopologyWorkload w : input.topologies()) {
            Placement p = result.placementOf(w.id());
            for (Map.Entry<ExecutorId, SlotId> e : p.asMap().entrySet()) {
                cpuOnNode.merge(e.getValue().nodeId(), w.loads().of(e.getKey()), Double::sum);
            }
            for (SlotId s : p.usedSlots()) {
                if (allUsed.add(s)) {
                    slotsOnNode.merge(s.nodeId(), 1, Integer::sum);
                }
            }
            crossingByNode(w.traffic(), p).forEach((n, v) -> bandwidthOnNode.merge(n, v, Double::sum));
        }

        List<TopologyMetrics> topologies = new ArrayList<>();
        Set<String> violations = new LinkedHashSet<>();
        double total = 0;
        double interNode = 0;
        double interSlot = 0;
        for (TopologyWorkload w : input.topologies()) {
            Placement p = result.placementOf(w.id());
            List<String> v = PlanValidator.validate(w.topology(), othersAsBackground(input, result, w),
                    p.executorsBySlot(), w.loads());
            violations.addAll(v);
            double t = w.traffic().total();
            double n = InterNodeTraffic.of(w.traffic(), p);
            double s = InterNodeTraffic.betweenSlots(w.traffic(), p);
            total += t;
            interNode += n;
            interSlot += s;
            int moved = w.current().isEmpty() ? -1 : p.movedComparedTo(w.current()).size();
            topologies.add(new TopologyMetrics(w.id(), w.topology().executors().size(), p.size(),
                    w.topology().numWorkers(), p.usedSlots().size(), p.usedNodes().size(), t, n, s, moved, v));
        }

        List<NodeMetrics> nodes = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            double cpu = cpuOnNode.getOrDefault(node.id(), 0.0);
            double bw = bandwidthOnNode.getOrDefault(node.id(), 0.0);
            double util = Double.isInfinite(node.cpuCapacity()) || node.cpuCapacity() <= 0 ? Double.NaN
                    : (node.cpuBackground() + cpu) / node.cpuCapacity();
            nodes.add(new NodeMetrics(node.id(), node.ports().size(), slotsOnNode.getOrDefault(node.id(), 0),
                    node.cpuCapacity(), node.cpuBackground(), cpu, util, node.bandwidthCapacity(),
                    node.bandwidthBackground(), bw));
            if (!Double.isInfinite(node.bandwidthCapacity()) && bw > 0
                    && node.bandwidthBackground() + bw > node.bandwidthCapacity() + 1e-9) {
                violations.add(String.format("node %s bandwidth %.1f tuples/s exceeds its capacity %.1f", node.id(),
                        node.bandwidthBackground() + bw, node.bandwidthCapacity()));
            }
        }
        return new Evaluation(topologies, nodes, total, interNode, interSlot, allUsed.size(),
                cpuOnNode.size(), List.copyOf(violations));
    }

    /** Tuples/s each node sends or receives across its boundary under {@code p}. */
    static Map<String, Double> crossingByNode(TrafficMatrix traffic, Placement p) {
        Map<String, Double> m = new TreeMap<>();
        for (Map.Entry<TrafficMatrix.Flow, Double> f : traffic.flows().entrySet()) {
            String a = p.nodeOf(f.getKey().from()).orElse(null);
            String b = p.nodeOf(f.getKey().to()).orElse(null);
            if (a != null && b != null && !a.equals(b)) {
                m.merge(a, f.getValue(), Double::sum);
                m.merge(b, f.getValue(), Double::sum);
            }
        }
        return m;
    }

    /** The cluster as {@code w} sees it: the other planned topologies hold their slots and load their nodes. */
    private static ClusterModel othersAsBackground(PlanningInput input, PlanningResult result, TopologyWorkload w) {
        ClusterModel cluster = input.cluster();
        Map<String, Double> cpu = new HashMap<>();
        Map<SlotId, String> owners = new TreeMap<>(cluster.slotOwners());
        for (TopologyWorkload other : input.topologies()) {
            if (other.id().equals(w.id())) {
                continue;
            }
            Placement p = result.placementOf(other.id());
            for (Map.Entry<ExecutorId, SlotId> e : p.asMap().entrySet()) {
                cpu.merge(e.getValue().nodeId(), other.loads().of(e.getKey()), Double::sum);
                if (cluster.hasSlot(e.getValue())) {
                    owners.put(e.getValue(), other.id());
                }
            }
        }
        List<Node> nodes = new ArrayList<>();
        for (Node n : cluster.nodes()) {
            nodes.add(n.withBackground(n.cpuBackground() + cpu.getOrDefault(n.id(), 0.0), n.bandwidthBackground()));
        }
        return new ClusterModel(nodes, owners);
    }
}
