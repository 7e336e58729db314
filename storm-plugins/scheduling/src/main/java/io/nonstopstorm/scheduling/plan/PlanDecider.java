package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.scheduling.core.PlanValidator;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ExecutorSpans;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns a migration plan into a complete target placement and checks it: targets must resolve to one
 * existing slot; the result must pass {@link PlanValidator} (every executor placed exactly once, slots
 * exist and are free or the topology's own, no more workers than the topology has). Pure.
 */
public final class PlanDecider {

    private PlanDecider() {
    }

    /**
     * @param topology   the topology's executors and worker count
     * @param cluster    nodes (supervisor ids), their slots, and who holds which slot
     * @param current    where the topology's executors run now
     * @param plan       the requested moves
     * @param hostOfNode supervisor id → host, to resolve targets given by host
     */
    public static PlanDecision decide(TopologyModel topology, ClusterModel cluster, Placement current, MigrationPlan plan,
                                      Map<String, String> hostOfNode) {
        Map<ExecutorId, SlotId> targets = new TreeMap<>();
        for (Map.Entry<ExecutorId, PlanTarget> e : plan.moves().entrySet()) {
            if (!topology.hasExecutor(e.getKey())) {
                return PlanDecision.rejected(ExecutorSpans.unknown(e.getKey().start(), e.getKey().end(),
                                                                   topology.id())
                                             + " (it has " + topology.executorIds() + ")");
            }
            Optional<String> node = resolveNode(e.getValue().node(), cluster, hostOfNode);
            if (node.isEmpty()) {
                return PlanDecision.rejected(unknownNode(e.getValue(), cluster, hostOfNode));
            }
            SlotId slot = new SlotId(node.get(), e.getValue().port());
            if (!cluster.hasSlot(slot)) {
                List<Integer> ports = cluster.node(node.get()).map(Node::ports).orElse(List.of());
                return PlanDecision.rejected("target " + e.getValue() + " of executor " + e.getKey() + ": port "
                                             + e.getValue().port() + " is not a worker slot of that node (slots: " + ports + ")");
            }
            targets.put(e.getKey(), slot);
        }
        Map<ExecutorId, SlotId> next = new TreeMap<>(current.asMap());
        next.putAll(targets);
        Map<SlotId, List<ExecutorId>> raw = new TreeMap<>();
        next.forEach((e, s) -> raw.computeIfAbsent(s, k -> new ArrayList<>()).add(e));
        List<String> violations = PlanValidator.validate(topology, cluster, raw, ExecutorLoads.none());
        if (!violations.isEmpty()) {
            return PlanDecision.rejected(String.join("; ", violations));
        }
        Placement target = Placement.of(next);
        List<PlanDecision.Move> moves = new ArrayList<>();
        for (ExecutorId e : target.movedComparedTo(current)) {
            moves.add(new PlanDecision.Move(e, current.slotOf(e).orElse(null), target.slotOf(e).orElseThrow()));
        }
        if (moves.isEmpty()) {
            return new PlanDecision(PlanDecision.Status.UNCHANGED, "every executor of the plan is already in place",
                                    Optional.empty(), List.of());
        }
        return new PlanDecision(PlanDecision.Status.APPLIED, moves.size() + " executor(s) moved", Optional.of(target), moves);
    }

    private static Optional<String> resolveNode(String name, ClusterModel cluster, Map<String, String> hostOfNode) {
        if (cluster.node(name).isPresent()) {
            return Optional.of(name);
        }
        List<String> byHost = new ArrayList<>();
        for (Node n : cluster.nodes()) {
            if (name.equals(hostOfNode.get(n.id()))) {
                byHost.add(n.id());
            }
        }
        return byHost.size() == 1 ? Optional.of(byHost.get(0)) : Optional.empty();
    }

    private static String unknownNode(PlanTarget t, ClusterModel cluster, Map<String, String> hostOfNode) {
        Map<String, Integer> perHost = new HashMap<>();
        for (Node n : cluster.nodes()) {
            perHost.merge(String.valueOf(hostOfNode.get(n.id())), 1, Integer::sum);
        }
        if (perHost.getOrDefault(t.node(), 0) > 1) {
            return "target " + t + ": host " + t.node() + " runs " + perHost.get(t.node())
                   + " supervisors; name one by supervisor id";
        }
        return "target " + t + ": no live supervisor has id or host '" + t.node() + "' (hosts: "
               + new TreeMap<>(perHost).keySet() + ")";
    }
}
