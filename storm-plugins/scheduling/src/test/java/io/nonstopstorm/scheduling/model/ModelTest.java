package io.nonstopstorm.scheduling.model;

import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModelTest {

    @Test
    void topologicalOrderBreaksTiesByDeclarationAndBreadthFirstByDiscovery() {
        ComponentGraph g = new ComponentGraph(List.of("sink", "b", "a", "spout"), List.of(
                new Edge("spout", "a"), new Edge("spout", "b"), new Edge("a", "sink"), new Edge("b", "sink")));
        assertEquals(List.of("spout", "b", "a", "sink"), g.topologicalOrder());
        // BFS visits in discovery order along the edges (spout -> a is declared first).
        assertEquals(List.of("spout", "a", "b", "sink"), g.breadthFirstOrder());
        assertEquals(List.of("a", "b"), g.upstreamOf("sink"));
    }

    @Test
    void breadthFirstWaitsForAllInputs() {
        // s -> x -> y -> z and s -> z: z must come after y even though s reaches it first.
        ComponentGraph g = new ComponentGraph(List.of("s", "x", "y", "z"), List.of(
                new Edge("s", "x"), new Edge("x", "y"), new Edge("y", "z"), new Edge("s", "z")));
        assertEquals(List.of("s", "x", "y", "z"), g.breadthFirstOrder());
    }

    @Test
    void rejectsCyclesUnknownComponentsAndDuplicates() {
        assertThrows(IllegalArgumentException.class, () -> new ComponentGraph(List.of("a", "b"),
                List.of(new Edge("a", "b"), new Edge("b", "a"))));
        assertThrows(IllegalArgumentException.class, () -> new ComponentGraph(List.of("a"), List.of(new Edge("a", "x"))));
        assertThrows(IllegalArgumentException.class, () -> new ComponentGraph(List.of("a", "a"), List.of()));
        ComponentGraph g = ComponentGraph.chain("a", "b");
        assertThrows(IllegalArgumentException.class, () -> new TopologyModel("t", g, List.of(
                new Executor(ExecutorId.single(1), "a"), new Executor(ExecutorId.single(1), "b")), 1));
        assertThrows(IllegalArgumentException.class, () -> new TopologyModel("t", g, List.of(
                new Executor(ExecutorId.single(1), "zzz")), 1));
        assertThrows(IllegalArgumentException.class, () -> new ExecutorId(3, 2));
        assertThrows(IllegalArgumentException.class, () -> ExecutorLoads.of(Map.of(ExecutorId.single(1), -1.0)));
        assertThrows(IllegalArgumentException.class, () -> TrafficMatrix.builder().add(ExecutorId.single(1), ExecutorId.single(2), -1));
    }

    @Test
    void topologyKnowsEffectiveWorkersAndComponents() {
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a", "b"), Map.of("a", 2, "b", 1), 5);
        assertEquals(3, t.effectiveWorkers());
        assertEquals(List.of(ExecutorId.single(1), ExecutorId.single(2)), t.executorsOf("a"));
        assertEquals("b", t.componentOf(ExecutorId.single(3)));
    }

    @Test
    void clusterSeparatesFreeOwnAndForeignSlots() {
        ClusterModel c = new ClusterModel(List.of(Node.of("n1", List.of(1, 2)), Node.of("n2", List.of(1))),
                Map.of(new SlotId("n1", 1), "other", new SlotId("n2", 1), "t"));
        assertEquals(List.of(new SlotId("n1", 2), new SlotId("n2", 1)), c.usableSlots("t"));
        assertFalse(c.usableBy(new SlotId("n1", 1), "t"));
        assertFalse(c.usableBy(new SlotId("n9", 1), "t"));
        ClusterModel moved = c.withOwnedSlots("t", List.of(new SlotId("n1", 2)));
        assertEquals(Map.of(new SlotId("n1", 1), "other", new SlotId("n1", 2), "t"), moved.slotOwners());
        assertThrows(IllegalArgumentException.class, () -> new ClusterModel(List.of(Node.of("n1", List.of(1))),
                Map.of(new SlotId("n1", 9), "x")));
    }

    @Test
    void placementGroupsBySlotAndReportsMoves() {
        ExecutorId a = ExecutorId.single(1);
        ExecutorId b = ExecutorId.single(2);
        Placement p = Placement.of(Map.of(a, new SlotId("n1", 1), b, new SlotId("n1", 1)));
        Placement q = Placement.of(Map.of(a, new SlotId("n1", 1), b, new SlotId("n2", 1)));
        assertEquals(Map.of(new SlotId("n1", 1), List.of(a, b)), p.executorsBySlot());
        assertEquals(java.util.Set.of(b), p.movedComparedTo(q));
        assertTrue(p.movedComparedTo(p).isEmpty());
    }

    @Test
    void trafficLinksAreSummedBothWaysAndSortedHeaviestFirst() {
        ExecutorId a = ExecutorId.single(1);
        ExecutorId b = ExecutorId.single(2);
        ExecutorId c = ExecutorId.single(3);
        TrafficMatrix t = TrafficMatrix.builder().add(a, b, 2).add(b, a, 3).add(c, a, 9).add(b, c, 5).build();
        assertEquals(List.of(new TrafficMatrix.Link(a, c, 9), new TrafficMatrix.Link(a, b, 5), new TrafficMatrix.Link(b, c, 5)),
                t.linksByRateDescending());
        assertEquals(14, t.totalOf(a), 1e-9);
    }

    @Test
    void outcomeCarriesValueOrReason() {
        Outcome<Integer> ok = Outcome.success(2);
        Outcome<Integer> bad = Outcome.failure("nope");
        assertEquals(4, ok.map(x -> x * 2).orElseThrow());
        assertEquals("nope", bad.map(x -> x * 2).reasonOrNull());
        assertThrows(IllegalStateException.class, bad::orElseThrow);
    }
}
