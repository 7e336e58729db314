package io.nonstopstorm.scheduling.storm.baseline;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.offline.PlanEvaluation;
import io.nonstopstorm.scheduling.offline.Planners;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.PlanningResult;
import io.nonstopstorm.scheduling.offline.TopologyWorkload;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StormBaselinePlannerTest {

    private static PlanningInput input(double nodeCpu, double executorCpu) {
        Map<SlotId, String> occupied = Map.of(new SlotId("n1", 6700), "other");
        List<Node> nodes = List.of(new Node("n1", List.of(6700, 6701), nodeCpu, Double.POSITIVE_INFINITY, 0, 0),
                new Node("n2", List.of(6700, 6701), nodeCpu, Double.POSITIVE_INFINITY, 0, 0),
                new Node("n3", List.of(6700), nodeCpu, Double.POSITIVE_INFINITY, 0, 0));
        ComponentGraph graph = new ComponentGraph(List.of("spout", "split", "count", "__acker"),
                List.of(new io.nonstopstorm.scheduling.model.Edge("spout", "split"),
                        new io.nonstopstorm.scheduling.model.Edge("split", "count")));
        TopologyModel t = TopologyModel.withParallelism("wc", graph, Map.of("spout", 2, "split", 3, "count", 3, "__acker", 1), 3);
        TrafficMatrix.Builder traffic = TrafficMatrix.builder();
        for (ExecutorId s : t.executorsOf("spout")) {
            t.executorsOf("split").forEach(x -> traffic.add(s, x, 100));
        }
        Map<ExecutorId, Double> loads = new HashMap<>();
        t.executorIds().forEach(e -> loads.put(e, executorCpu));
        return PlanningInput.of(new ClusterModel(nodes, occupied),
                List.of(TopologyWorkload.of(t, traffic.build(), ExecutorLoads.of(loads))));
    }

    @Test
    void defaultSchedulerSpreadsOverTheRequestedWorkersAndSkipsForeignSlots() {
        PlanningInput in = input(1000, 10);
        PlanningResult r = Planners.named("storm-default").orElseThrow().plan(in).orElseThrow();
        Placement p = r.placementOf("wc");
        assertEquals(in.topologies().get(0).topology().executorIdSet(), p.executors(), "system executors included");
        assertEquals(3, p.usedSlots().size(), "the even scheduler uses min(W, free slots) workers");
        assertFalse(p.usedSlots().contains(new SlotId("n1", 6700)), "slot held by another topology");
        // Even: executors per worker differ by at most one.
        var sizes = p.executorsBySlot().values().stream().mapToInt(List::size).summaryStatistics();
        assertTrue(sizes.getMax() - sizes.getMin() <= 1, p.toString());
    }

    @Test
    void resourceAwareSchedulerRespectsNodeCpu() {
        // 9 executors x 30 = 270 CPU; nodes of 100 force it over at least three nodes.
        PlanningInput in = input(100, 30);
        PlanningResult r = Planners.named("storm-ras").orElseThrow().plan(in).orElseThrow();
        Placement p = r.placementOf("wc");
        assertEquals(9, p.size());
        assertFalse(p.usedSlots().contains(new SlotId("n1", 6700)));
        PlanEvaluation.Evaluation ev = PlanEvaluation.evaluate(in, r);
        for (PlanEvaluation.NodeMetrics n : ev.nodes()) {
            assertTrue(n.cpuPlanned() <= 100 + 1e-9, n.toString());
        }
        assertTrue(r.notesOf("wc").get(0).startsWith("storm status: "));
        // Not enough CPU anywhere: a failure that says so, not an exception.
        String reason = Planners.named("storm-ras").orElseThrow().plan(input(50, 30)).reasonOrNull();
        assertTrue(reason != null && reason.startsWith("storm-ras left "), reason);
    }
}
