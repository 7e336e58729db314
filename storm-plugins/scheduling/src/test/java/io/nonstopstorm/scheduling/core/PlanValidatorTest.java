package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanValidatorTest {

    private static final TopologyModel TOPO = TopologyModel.withParallelism("t",
            ComponentGraph.chain("a", "b"), Map.of("a", 2, "b", 1), 2);
    private static final ExecutorId E1 = ExecutorId.single(1);
    private static final ExecutorId E2 = ExecutorId.single(2);
    private static final ExecutorId E3 = ExecutorId.single(3);
    private static final ClusterModel CLUSTER = new ClusterModel(List.of(
            Node.of("n1", List.of(1, 2), 100), Node.of("n2", List.of(1, 2), 100)),
            Map.of(new SlotId("n2", 2), "someone-else", new SlotId("n1", 2), "t"));
    private static final SlotId N1P1 = new SlotId("n1", 1);
    private static final SlotId N1P2 = new SlotId("n1", 2);
    private static final SlotId N2P1 = new SlotId("n2", 1);

    @Test
    void acceptsAValidPlanOnFreeAndOwnSlots() {
        Map<SlotId, List<ExecutorId>> plan = Map.of(N1P2, List.of(E1, E2), N2P1, List.of(E3));
        assertEquals(List.of(), PlanValidator.validate(TOPO, CLUSTER, plan, ExecutorLoads.none()));
        Placement p = PlanValidator.toPlacement(TOPO, CLUSTER, plan, ExecutorLoads.none()).orElseThrow();
        assertEquals(N1P2, p.slotOf(E2).orElseThrow());
    }

    @Test
    void reportsEveryViolation() {
        ExecutorId stranger = ExecutorId.single(99);
        Map<SlotId, List<ExecutorId>> plan = Map.of(
                N1P1, List.of(E1, stranger),
                new SlotId("n2", 2), List.of(E1),          // held by another topology, and E1 twice
                new SlotId("n3", 1), List.of(E3));         // no such node
        List<String> v = PlanValidator.validate(TOPO, CLUSTER, plan, ExecutorLoads.none());
        assertTrue(v.contains("slot n2:2 is held by topology someone-else"), v.toString());
        assertTrue(v.contains("slot n3:1 does not exist"), v.toString());
        assertTrue(v.contains("executor [99,99] is not an executor of topology t"), v.toString());
        assertTrue(v.stream().anyMatch(s -> s.startsWith("executor [1,1] is placed 2 times")), v.toString());
        assertTrue(v.contains("1 executor(s) of topology t not placed: [[2,2]]"), v.toString());
        assertTrue(v.contains("plan uses 3 slots but topology t has 2 workers"), v.toString());
        assertEquals(6, v.size(), v.toString());
    }

    @Test
    void rejectsPlansThatOverloadANode() {
        ExecutorLoads loads = ExecutorLoads.of(Map.of(E1, 60.0, E2, 50.0, E3, 10.0));
        Map<SlotId, List<ExecutorId>> plan = Map.of(N1P1, List.of(E1, E2), N2P1, List.of(E3));
        List<String> v = PlanValidator.validate(TOPO, CLUSTER, plan, loads);
        assertEquals(List.of("node n1 CPU load 110.000 exceeds its capacity 100.000"), v);
        Outcome<Placement> o = PlanValidator.toPlacement(TOPO, CLUSTER, plan, loads);
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().contains("rejected"), o.reasonOrNull());
    }

    @Test
    void emptySlotEntriesAreHarmless() {
        Map<SlotId, List<ExecutorId>> plan = Map.of(N1P1, List.of(E1, E2, E3), N2P1, List.of());
        assertEquals(List.of(), PlanValidator.validate(TOPO, CLUSTER, plan, ExecutorLoads.none()));
    }
}
