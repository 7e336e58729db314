package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.testing.PlacementChecks;
import io.nonstopstorm.scheduling.testing.RandomInstance;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ElasticAllocatorTest {

    private static final LongSupplier FROZEN = () -> 0L;
    private static final ElasticAllocator.Params LIMITS = new ElasticAllocator.Params(0.9, 0.9, 1_000_000);

    @Test
    void classesSplitAtFortyAndEightyPercent() {
        assertEquals(ElasticLoadClass.LIGHT, ElasticLoadClass.of(0.0));
        assertEquals(ElasticLoadClass.LIGHT, ElasticLoadClass.of(0.3999));
        assertEquals(ElasticLoadClass.MODERATE, ElasticLoadClass.of(0.40));
        assertEquals(ElasticLoadClass.MODERATE, ElasticLoadClass.of(0.7999));
        assertEquals(ElasticLoadClass.HEAVY, ElasticLoadClass.of(0.80));
        assertEquals(ElasticLoadClass.HEAVY, ElasticLoadClass.of(1.5));
    }

    @Test
    void heavyNodesGetNothingNewAndLoadIsBalancedOverTheOthers() {
        // n1 is heavy (85 % background), n2 and n3 light; four equal operators without traffic.
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("op"), Map.of("op", 4), 3);
        ClusterModel c = ClusterModel.of(List.of(
                new Node("n1", List.of(1), 1.0, 100, 0.85, 0),
                new Node("n2", List.of(1), 1.0, 100, 0.10, 0),
                new Node("n3", List.of(1), 1.0, 100, 0.10, 0)));
        ExecutorLoads cpu = equalLoads(t, 0.15);
        ElasticAllocator.Result r = new ElasticAllocator(LIMITS, FROZEN)
                .place(t, c, cpu, TrafficMatrix.empty(), Placement.empty()).orElseThrow();
        assertEquals(List.of(), r.spreadBestEffort());
        assertFalse(r.placement().usedNodes().contains("n1"));
        Map<String, Long> perNode = countPerNode(r.placement());
        assertEquals(2L, perNode.get("n2"));
        assertEquals(2L, perNode.get("n3"));
    }

    @Test
    void bandwidthLimitKeepsHeavyTalkersTogether() {
        // Two operators exchanging 80 tuples/s; links carry 100, limit 50 %: splitting them is infeasible.
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a", "b"), Map.of("a", 1, "b", 1), 2);
        ClusterModel c = ClusterModel.of(List.of(
                new Node("n1", List.of(1), 1.0, 100, 0, 0), new Node("n2", List.of(1), 1.0, 100, 0, 0)));
        TrafficMatrix tr = TrafficMatrix.builder().add(ExecutorId.single(1), ExecutorId.single(2), 80).build();
        ElasticAllocator.Result r = new ElasticAllocator(new ElasticAllocator.Params(0.9, 0.5, 1_000_000), FROZEN)
                .place(t, c, equalLoads(t, 0.2), tr, Placement.empty()).orElseThrow();
        assertEquals(1, r.placement().usedNodes().size());
        assertEquals(List.of(), r.spreadBestEffort());
    }

    @Test
    void operatorsLeftWhenTheBudgetRunsOutAreSpreadOverLightNodes() {
        // Every clock read advances 1 ns; a budget of 2 ns lets GMA place only the first operators.
        AtomicLong now = new AtomicLong();
        LongSupplier ticking = now::getAndIncrement;
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("op"), Map.of("op", 6), 3);
        ClusterModel c = ClusterModel.of(List.of(
                new Node("n1", List.of(1), 1.0, 100, 0.5, 0),   // moderate
                new Node("n2", List.of(1), 1.0, 100, 0.0, 0),   // light
                new Node("n3", List.of(1), 1.0, 100, 0.05, 0))); // light
        ElasticAllocator.Result r = new ElasticAllocator(new ElasticAllocator.Params(0.9, 0.9, 2), ticking)
                .place(t, c, equalLoads(t, 0.01), TrafficMatrix.empty(), Placement.empty()).orElseThrow();
        assertFalse(r.spreadBestEffort().isEmpty());
        for (ExecutorId e : r.spreadBestEffort()) {
            String node = r.placement().nodeOf(e).orElseThrow();
            assertTrue(node.equals("n2") || node.equals("n3"), e + " spread onto light node, got " + node);
        }
        PlacementChecks.assertCompleteAndOnUsableSlots(t, c, r.placement());
    }

    @Test
    void overLimitOperatorsAreSpreadBestEffortInsteadOfDropped() {
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("op"), Map.of("op", 3), 2);
        ClusterModel c = ClusterModel.of(List.of(new Node("n1", List.of(1), 1.0, 100, 0, 0),
                new Node("n2", List.of(1), 1.0, 100, 0, 0)));
        ElasticAllocator.Result r = new ElasticAllocator(LIMITS, FROZEN)
                .place(t, c, equalLoads(t, 0.5), TrafficMatrix.empty(), Placement.empty()).orElseThrow();
        assertEquals(1, r.spreadBestEffort().size());
        assertEquals(3, r.placement().size());
    }

    @Test
    void failsAsAValueWithoutAnyUsableSlot() {
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("op"), Map.of("op", 1), 1);
        ClusterModel c = new ClusterModel(List.of(new Node("n1", List.of(1), 1.0, 100, 0, 0)),
                Map.of(new SlotId("n1", 1), "other"));
        Outcome<ElasticAllocator.Result> o = new ElasticAllocator(LIMITS, FROZEN)
                .place(t, c, equalLoads(t, 0.1), TrafficMatrix.empty(), Placement.empty());
        assertFalse(o.isSuccess());
    }

    @Test
    void randomInstancesUseAtMostWWorkersOneSlotPerNodeAndAreIdempotent() {
        for (long seed = 1; seed <= 200; seed++) {
            RandomInstance in = RandomInstance.generate(seed, RandomInstance.Shape.MEDIUM);
            // Express loads as node fractions: GMA works on utilisation.
            double cap = in.cluster().nodes().get(0).cpuCapacity();
            Map<ExecutorId, Double> frac = new HashMap<>();
            in.topology().executorIds().forEach(e -> frac.put(e, in.loads().of(e) / cap));
            List<Node> nodes = in.cluster().nodes().stream()
                    .map(n -> new Node(n.id(), n.ports(), 1.0, 5_000, n.cpuBackground() / cap, 0)).toList();
            ClusterModel cluster = in.cluster().withNodes(nodes);
            ExecutorLoads loads = ExecutorLoads.of(frac);
            ElasticAllocator gma = new ElasticAllocator(LIMITS, FROZEN);
            ElasticAllocator.Result r = gma.place(in.topology(), cluster, loads, in.traffic(), Placement.empty()).orElseThrow();
            Placement p = r.placement();
            PlacementChecks.assertCompleteAndOnUsableSlots(in.topology(), cluster, p);
            assertTrue(p.usedSlots().size() <= in.topology().numWorkers(), "seed " + seed);
            assertEquals(p.usedNodes().size(), p.usedSlots().size(), "one worker per used node, seed " + seed);
            if (r.spreadBestEffort().isEmpty()) {
                for (Node n : nodes) {
                    double used = n.cpuBackground() + p.asMap().entrySet().stream()
                            .filter(e -> e.getValue().nodeId().equals(n.id())).mapToDouble(e -> loads.of(e.getKey())).sum();
                    if (p.usedNodes().contains(n.id())) {
                        assertTrue(used <= 0.9 + 1e-9, "D_CPU respected on " + n.id() + ", seed " + seed);
                    }
                }
            }
            ClusterModel after = cluster.withOwnedSlots(in.topology().id(), p.usedSlots());
            assertEquals(p, gma.place(in.topology(), after, loads, in.traffic(), p).orElseThrow().placement(), "seed " + seed);
        }
    }

    private static ExecutorLoads equalLoads(TopologyModel t, double each) {
        Map<ExecutorId, Double> m = new HashMap<>();
        t.executorIds().forEach(e -> m.put(e, each));
        return ExecutorLoads.of(m);
    }

    private static Map<String, Long> countPerNode(Placement p) {
        Map<String, Long> m = new HashMap<>();
        p.asMap().values().forEach(s -> m.merge(s.nodeId(), 1L, Long::sum));
        return m;
    }
}
