package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PlanDeciderTest {
    // spout 1, relay 2-3, sink 4; two workers: n1:6700 holds 1,2 and n2:6700 holds 3,4; n2:6701 is held by "other".
    private static final TopologyModel TOPO = TopologyModel.withParallelism("t-1",
        ComponentGraph.chain("spout", "relay", "sink"), Map.of("spout", 1, "relay", 2, "sink", 1), 2);
    private static final SlotId A = new SlotId("n1", 6700);
    private static final SlotId B = new SlotId("n2", 6700);
    private static final SlotId OTHER = new SlotId("n2", 6701);
    private static final ClusterModel CLUSTER = new ClusterModel(
        List.of(Node.of("n1", List.of(6700, 6701)), Node.of("n2", List.of(6700, 6701))),
        Map.of(A, "t-1", B, "t-1", OTHER, "other"));
    private static final Map<String, String> HOSTS = Map.of("n1", "10.0.0.1", "n2", "10.0.0.2");
    private static final Placement CURRENT = Placement.of(Map.of(ExecutorId.single(1), A, ExecutorId.single(2), A,
                                                                 ExecutorId.single(3), B, ExecutorId.single(4), B));

    private static MigrationPlan plan(Object... executorThenTarget) {
        TreeMap<ExecutorId, PlanTarget> m = new TreeMap<>();
        for (int i = 0; i < executorThenTarget.length; i += 2) {
            m.put((ExecutorId) executorThenTarget[i], PlanTarget.parse((String) executorThenTarget[i + 1]));
        }
        return new MigrationPlan(Optional.empty(), m);
    }

    @Test
    void movesOneExecutorBetweenTheTopologysWorkersByHostOrId() {
        PlanDecision d = PlanDecider.decide(TOPO, CLUSTER, CURRENT, plan(ExecutorId.single(2), "10.0.0.2:6700"), HOSTS);
        assertEquals(PlanDecision.Status.APPLIED, d.status());
        assertEquals(List.of(new PlanDecision.Move(ExecutorId.single(2), A, B)), d.moves());
        Placement target = d.target().orElseThrow();
        assertEquals(List.of(ExecutorId.single(1)), target.executorsBySlot().get(A));
        assertEquals(List.of(ExecutorId.single(2), ExecutorId.single(3), ExecutorId.single(4)), target.executorsBySlot().get(B));
        PlanDecision byId = PlanDecider.decide(TOPO, CLUSTER, CURRENT, plan(ExecutorId.single(2), "n2:6700"), HOSTS);
        assertEquals(d.target(), byId.target());
    }

    @Test
    void aPlanThatMatchesTheCurrentPlacementChangesNothing() {
        PlanDecision d = PlanDecider.decide(TOPO, CLUSTER, CURRENT, plan(ExecutorId.single(3), "10.0.0.2:6700"), HOSTS);
        assertEquals(PlanDecision.Status.UNCHANGED, d.status());
        assertTrue(d.target().isEmpty());
    }

    @Test
    void rejectsMissingExecutorsPortsNodesAndForeignSlots() {
        assertRejected(plan(ExecutorId.single(9), "10.0.0.2:6700"), "executor [9,9] is not an executor of t-1");
        assertRejected(plan(ExecutorId.single(2), "10.0.0.2:7777"), "port 7777 is not a worker slot of that node");
        assertRejected(plan(ExecutorId.single(2), "10.0.0.9:6700"), "no live supervisor has id or host '10.0.0.9'");
        assertRejected(plan(ExecutorId.single(2), "10.0.0.2:6701"), "slot n2:6701 is held by topology other");
    }

    @Test
    void rejectsAPlanThatNeedsMoreWorkersThanTheTopologyHas() {
        assertRejected(plan(ExecutorId.single(2), "10.0.0.1:6701"), "plan uses 3 slots but topology t-1 has 2 workers");
    }

    @Test
    void hostsWithSeveralSupervisorsMustBeNamedById() {
        ClusterModel twoOnOneHost = new ClusterModel(
            List.of(Node.of("n1", List.of(6700)), Node.of("n2", List.of(6700))), Map.of(A, "t-1", B, "t-1"));
        PlanDecision d = PlanDecider.decide(TOPO, twoOnOneHost, CURRENT, plan(ExecutorId.single(2), "box:6700"),
                                            Map.of("n1", "box", "n2", "box"));
        assertEquals(PlanDecision.Status.REJECTED, d.status());
        assertTrue(d.reason().contains("runs 2 supervisors"), d.reason());
    }

    private static void assertRejected(MigrationPlan p, String part) {
        PlanDecision d = PlanDecider.decide(TOPO, CLUSTER, CURRENT, p, HOSTS);
        assertEquals(PlanDecision.Status.REJECTED, d.status(), d.toString());
        assertTrue(d.reason().contains(part), "'" + d.reason() + "' should mention '" + part + "'");
        assertTrue(d.target().isEmpty() && d.moves().isEmpty());
    }
}
