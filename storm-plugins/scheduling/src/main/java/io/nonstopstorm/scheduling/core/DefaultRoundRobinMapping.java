package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * DSM, the Default Storm Mapping as Shukla &amp; Simmhan's Algorithm 4 states it: thread k (0-based, the
 * counter running on across tasks) goes to slot {@code k mod |S|}. Resource-blind; it can push a slot past
 * 100 %. This is the paper's abstraction of Storm's EvenScheduler, not a re-implementation of it.
 */
public final class DefaultRoundRobinMapping {

    private DefaultRoundRobinMapping() {
    }

    /** Maps {@code threads} in the given order onto {@code slots} in the given order. */
    public static Outcome<Placement> map(List<ExecutorId> threads, List<SlotId> slots) {
        if (threads.isEmpty()) {
            return Outcome.success(Placement.empty());
        }
        if (slots.isEmpty()) {
            return Outcome.failure("no slots to map " + threads.size() + " threads onto");
        }
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        for (int k = 0; k < threads.size(); k++) {
            if (slotOf.put(threads.get(k), slots.get(k % slots.size())) != null) {
                return Outcome.failure("thread " + threads.get(k) + " listed twice");
            }
        }
        return Outcome.success(Placement.of(slotOf));
    }

    /**
     * Threads in the topology's listing order (grouped by component), slots = the first
     * {@code min(W, E)} usable slots in cluster order.
     */
    public static Outcome<Placement> map(TopologyModel topology, ClusterModel cluster) {
        List<SlotId> usable = cluster.usableSlots(topology.id());
        int count = Math.min(topology.effectiveWorkers(), usable.size());
        return map(topology.executorIds(), usable.subList(0, count));
    }
}
