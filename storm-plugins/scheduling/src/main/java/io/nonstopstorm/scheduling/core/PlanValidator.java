package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks a plan written by someone else (the controller) before a plan-following scheduler applies it.
 * The plan is in the raw form it arrives in, slot → executors, so duplicates are still visible.
 */
public final class PlanValidator {

    private PlanValidator() {
    }

    /**
     * @return human-readable violations; empty means the plan can be applied. Checked: every executor of
     *         the topology is placed exactly once and nothing else is; every slot exists and is free or
     *         the topology's own; the plan uses at most the topology's worker count; no node's CPU
     *         (background + executor loads) exceeds its capacity.
     */
    public static List<String> validate(TopologyModel topology, ClusterModel cluster,
                                        Map<SlotId, List<ExecutorId>> plan, ExecutorLoads loads) {
        List<String> violations = new ArrayList<>();
        Map<ExecutorId, List<SlotId>> slotsOf = new TreeMap<>();
        int usedSlots = 0;
        for (Map.Entry<SlotId, List<ExecutorId>> entry : new TreeMap<>(plan).entrySet()) {
            SlotId slot = entry.getKey();
            if (entry.getValue().isEmpty()) {
                continue;
            }
            usedSlots++;
            if (!cluster.hasSlot(slot)) {
                violations.add("slot " + slot + " does not exist");
            } else {
                cluster.ownerOf(slot).filter(owner -> !owner.equals(topology.id()))
                        .ifPresent(owner -> violations.add("slot " + slot + " is held by topology " + owner));
            }
            for (ExecutorId e : entry.getValue()) {
                slotsOf.computeIfAbsent(e, k -> new ArrayList<>()).add(slot);
            }
        }
        for (Map.Entry<ExecutorId, List<SlotId>> e : slotsOf.entrySet()) {
            if (!topology.hasExecutor(e.getKey())) {
                violations.add("executor " + e.getKey() + " is not an executor of topology " + topology.id());
            } else if (e.getValue().size() > 1) {
                violations.add("executor " + e.getKey() + " is placed " + e.getValue().size() + " times: " + e.getValue());
            }
        }
        TreeSet<ExecutorId> missing = new TreeSet<>(topology.executorIdSet());
        missing.removeAll(slotsOf.keySet());
        if (!missing.isEmpty()) {
            violations.add(missing.size() + " executor(s) of topology " + topology.id() + " not placed: " + missing);
        }
        if (usedSlots > topology.numWorkers()) {
            violations.add("plan uses " + usedSlots + " slots but topology " + topology.id() + " has "
                    + topology.numWorkers() + " workers");
        }
        Map<String, Double> nodeLoad = new HashMap<>();
        for (Map.Entry<ExecutorId, List<SlotId>> e : slotsOf.entrySet()) {
            for (SlotId s : e.getValue()) {
                nodeLoad.merge(s.nodeId(), loads.of(e.getKey()), Double::sum);
            }
        }
        for (Node node : cluster.nodes()) {
            double load = node.cpuBackground() + nodeLoad.getOrDefault(node.id(), 0.0);
            if (nodeLoad.containsKey(node.id()) && load > node.cpuCapacity() + 1e-9) {
                violations.add(String.format("node %s CPU load %.3f exceeds its capacity %.3f", node.id(), load,
                        node.cpuCapacity()));
            }
        }
        return violations;
    }

    /** The plan as a {@link Placement}, or a failure listing every violation. */
    public static Outcome<Placement> toPlacement(TopologyModel topology, ClusterModel cluster,
                                                 Map<SlotId, List<ExecutorId>> plan, ExecutorLoads loads) {
        List<String> violations = validate(topology, cluster, plan, loads);
        if (!violations.isEmpty()) {
            return Outcome.failure("plan for " + topology.id() + " rejected: " + String.join("; ", violations));
        }
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        plan.forEach((slot, executors) -> executors.forEach(e -> slotOf.put(e, slot)));
        return Outcome.success(Placement.of(slotOf));
    }
}
