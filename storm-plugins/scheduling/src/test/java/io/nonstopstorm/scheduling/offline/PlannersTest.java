package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.core.ExactInterNodeOptimum;
import io.nonstopstorm.scheduling.core.ExecutorsPerSlotLimit;
import io.nonstopstorm.scheduling.core.InterNodeTraffic;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.otd.OtdDecision;
import io.nonstopstorm.scheduling.testing.RandomInstance;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlannersTest {

    private static TopologyWorkload chain(String id, int perComponent, int workers, double rate, double load) {
        TopologyModel t = TopologyModel.withParallelism(id, ComponentGraph.chain("s", "b"),
                Map.of("s", perComponent, "b", perComponent), workers);
        TrafficMatrix.Builder traffic = TrafficMatrix.builder();
        Map<ExecutorId, Double> loads = new HashMap<>();
        for (ExecutorId from : t.executorsOf("s")) {
            for (ExecutorId to : t.executorsOf("b")) {
                traffic.add(from, to, rate);
            }
        }
        t.executorIds().forEach(e -> loads.put(e, load));
        return TopologyWorkload.of(t, traffic.build(), ExecutorLoads.of(loads));
    }

    @Test
    void laterTopologiesSeeEarlierOnesSlotsAndLoad() {
        ClusterModel cluster = ClusterModel.of(List.of(Node.of("n1", List.of(1, 2), 100), Node.of("n2", List.of(1, 2), 100)));
        TopologyWorkload first = chain("first", 2, 2, 10, 20);
        TopologyWorkload second = chain("second", 2, 2, 10, 20);
        PlanningInput input = PlanningInput.of(cluster, List.of(first, second));
        for (String name : List.of("aniello-offline", "aniello-online", "dsm", "elastic", "optimum")) {
            PlanningResult r = Planners.named(name).orElseThrow().plan(input).orElseThrow();
            Set<SlotId> a = r.placementOf("first").usedSlots();
            Set<SlotId> b = r.placementOf("second").usedSlots();
            Set<SlotId> shared = new HashSet<>(a);
            shared.retainAll(b);
            assertTrue(shared.isEmpty(), name + " gave both topologies slot(s) " + shared);
            assertTrue(PlanEvaluation.evaluate(input, r).violations().isEmpty(), name);
        }
        ClusterModel after = SequentialPlanner.withPlaced(cluster, first,
                Placement.of(Map.of(ExecutorId.single(1), new SlotId("n1", 1), ExecutorId.single(3), new SlotId("n1", 1))));
        assertEquals(40, after.node("n1").orElseThrow().cpuBackground());
        assertEquals("first", after.ownerOf(new SlotId("n1", 1)).orElseThrow());
    }

    @Test
    void evaluationFlagsOverloadedNodesAndCountsTraffic() {
        ClusterModel cluster = ClusterModel.of(List.of(Node.of("n1", List.of(1, 2), 100), Node.of("n2", List.of(1), 100)));
        TopologyWorkload w = chain("t", 2, 2, 10, 60);
        PlanningInput input = PlanningInput.of(cluster, List.of(w));
        // All four executors (240 CPU) on n1: over capacity; nothing crosses nodes.
        Map<ExecutorId, SlotId> slots = new HashMap<>();
        w.topology().executorIds().forEach(e -> slots.put(e, new SlotId("n1", e.start() % 2 + 1)));
        PlanEvaluation.Evaluation ev = PlanEvaluation.evaluate(input,
                new PlanningResult(Map.of("t", Placement.of(slots)), Map.of()));
        assertEquals(0, ev.interNodeTraffic());
        assertEquals(40, ev.totalTraffic(), 1e-9);
        assertTrue(ev.interSlotTraffic() > 0);
        assertEquals(1, ev.violations().size(), ev.violations().toString());
        assertTrue(ev.violations().get(0).startsWith("node n1 CPU load 240.000 exceeds"));
        assertEquals(2.4, ev.nodes().get(0).utilisation(), 1e-9);
        assertEquals(2, ev.slotsUsed());
    }

    @Test
    void optimumPlacementHasTheSolversTrafficAndLegalWorkers() {
        SchedulerParams params = SchedulerParams.DEFAULTS;
        for (long seed = 1; seed <= 15; seed++) {
            RandomInstance inst = RandomInstance.generate(seed, RandomInstance.Shape.SMALL);
            TopologyWorkload w = TopologyWorkload.of(inst.topology(), inst.traffic(), inst.loads());
            Outcome<ExactInterNodeOptimum.Result> exact = new ExactInterNodeOptimum(0, params.optimum().maxSearchNodes())
                    .solve(inst.topology(), inst.cluster(), inst.traffic(), inst.loads());
            Outcome<TopologyPlan> plan = OptimumPlacement.place(w, inst.cluster(), params);
            assertEquals(exact.isSuccess(), plan.isSuccess(), "seed " + seed);
            if (!plan.isSuccess()) {
                continue;
            }
            Placement p = plan.orElseThrow().placement();
            assertEquals(exact.orElseThrow().interNodeTraffic(), InterNodeTraffic.of(inst.traffic(), p), 1e-6, "seed " + seed);
            int workers = inst.topology().effectiveWorkers();
            assertEquals(workers, p.usedSlots().size(), "seed " + seed + ": exactly W' workers");
            int limit = ExecutorsPerSlotLimit.of(0, inst.topology().executors().size(), workers);
            p.executorsBySlot().forEach((slot, executors) -> {
                assertTrue(executors.size() <= limit, slot + " holds " + executors.size() + " > M");
                assertTrue(inst.cluster().usableBy(slot, inst.topology().id()), slot + " is not usable");
            });
        }
    }

    @Test
    void optimumRefusesAboveTheSizeLimit() {
        TopologyWorkload w = chain("t", 5, 2, 1, 1);
        ClusterModel cluster = ClusterModel.uniform(2, 2, 100);
        SchedulerParams small = SchedulerParams.DEFAULTS.withOptimum(new SchedulerParams.Optimum(9, 1000));
        String reason = OptimumPlacement.place(w, cluster, small).reasonOrNull();
        assertTrue(reason.contains("has 10 executors, the limit is 9"), reason);
    }

    @Test
    void otdRoundNeverMovesASpoutEvenWhenThatWouldBeItsBestMove() {
        ClusterModel cluster = ClusterModel.of(List.of(Node.of("n1", List.of(1, 2), 100), Node.of("n2", List.of(1, 2), 100)));
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("s", "b"), Map.of("s", 1, "b", 2), 2);
        TrafficMatrix.Builder traffic = TrafficMatrix.builder();
        Map<ExecutorId, Double> loads = new HashMap<>();
        ExecutorId spout = t.executorsOf("s").get(0);
        t.executorsOf("b").forEach(b -> traffic.add(spout, b, 50));
        t.executorIds().forEach(e -> loads.put(e, 10.0));
        // The spout alone on n1, both bolts on n2: moving the spout would make all traffic local (ASC 100),
        // moving a bolt only half of it (ASC 50). OTD must take the bolt.
        Map<ExecutorId, SlotId> split = new HashMap<>();
        split.put(spout, new SlotId("n1", 1));
        t.executorsOf("b").forEach(e -> split.put(e, new SlotId("n2", 1)));
        TopologyWorkload w = TopologyWorkload.of(t, traffic.build(), ExecutorLoads.of(loads)).withCurrent(Placement.of(split));
        OtdDecision.Move move = assertInstanceOf(OtdDecision.Move.class,
                OtdRound.run(w, cluster, SchedulerParams.Otd.DEFAULTS).orElseThrow().decision());
        assertTrue(t.executorsOf("b").stream().anyMatch(b -> b.toString().equals(move.executor())), move.toString());
        assertEquals(50, move.asc(), 1e-9);
        assertEquals(List.of(spout), t.sourceExecutors());
    }

    @Test
    void otdRoundMovesAtMostOneExecutorAndNeedsACurrentPlacement() {
        ClusterModel cluster = ClusterModel.of(List.of(Node.of("n1", List.of(1, 2), 100), Node.of("n2", List.of(1, 2), 100)));
        TopologyWorkload w = chain("t", 2, 2, 50, 10);
        assertFalse(OtdRound.run(w, cluster, SchedulerParams.Otd.DEFAULTS).isSuccess());
        // Spouts on n1, bolts on n2: every tuple crosses; both workers are LOW (20 of the node's 100).
        Map<ExecutorId, SlotId> split = new HashMap<>();
        w.topology().executorsOf("s").forEach(e -> split.put(e, new SlotId("n1", 1)));
        w.topology().executorsOf("b").forEach(e -> split.put(e, new SlotId("n2", 1)));
        OtdRound.Result r = OtdRound.run(w.withCurrent(Placement.of(split)), cluster, SchedulerParams.Otd.DEFAULTS).orElseThrow();
        OtdDecision.Move move = assertInstanceOf(OtdDecision.Move.class, r.decision());
        assertEquals(1, r.placement().movedComparedTo(Placement.of(split)).size());
        assertTrue(InterNodeTraffic.of(w.traffic(), r.placement()) < InterNodeTraffic.of(w.traffic(), Placement.of(split)));
        assertEquals(move.asc(), InterNodeTraffic.of(w.traffic(), Placement.of(split))
                - InterNodeTraffic.of(w.traffic(), r.placement()), 1e-9);
    }

    @Test
    void samDerivesBundlesFromLoads() {
        ClusterModel cluster = ClusterModel.uniform(2, 4, 400); // 100 CPU per slot
        TopologyWorkload w = chain("t", 5, 4, 1, 40);
        var allocation = SamAllocations.of(w, cluster, Map.of()).orElseThrow();
        assertEquals(2.0, allocation.get("s").cpu(), 1e-9, "5 x 40 / 100");
        assertEquals(2, allocation.get("s").bundleSize(), "two executors of 40 fill a slot of 100");
        TopologyWorkload unbounded = chain("t", 2, 2, 1, 40);
        assertFalse(SamAllocations.of(unbounded, ClusterModel.uniform(2, 2, Double.POSITIVE_INFINITY), Map.of()).isSuccess());
    }
}
