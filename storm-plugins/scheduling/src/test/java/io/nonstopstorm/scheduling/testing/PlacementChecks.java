package io.nonstopstorm.scheduling.testing;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Assertions every placement must pass, whatever algorithm made it. */
public final class PlacementChecks {

    private PlacementChecks() {
    }

    /** Every executor placed exactly once, on slots that exist and are free or the topology's own. */
    public static void assertCompleteAndOnUsableSlots(TopologyModel topology, ClusterModel cluster, Placement p) {
        assertEquals(topology.executorIdSet(), p.executors(), "every executor placed exactly once");
        for (SlotId s : p.usedSlots()) {
            assertTrue(cluster.usableBy(s, topology.id()), "slot " + s + " is usable by " + topology.id());
        }
    }

    public static void assertAtMostPerSlot(Placement p, int limit) {
        for (Map.Entry<SlotId, List<ExecutorId>> e : p.executorsBySlot().entrySet()) {
            assertTrue(e.getValue().size() <= limit, "slot " + e.getKey() + " holds " + e.getValue().size()
                    + " executors, limit " + limit);
        }
    }

    public static void assertNodeCapacities(ClusterModel cluster, ExecutorLoads loads, Placement p) {
        for (Node n : cluster.nodes()) {
            double load = n.cpuBackground();
            for (Map.Entry<ExecutorId, SlotId> e : p.asMap().entrySet()) {
                if (e.getValue().nodeId().equals(n.id())) {
                    load += loads.of(e.getKey());
                }
            }
            if (p.usedNodes().contains(n.id())) {
                assertTrue(load <= n.cpuCapacity() + 1e-6, "node " + n.id() + " load " + load + " <= " + n.cpuCapacity());
            }
        }
    }
}
