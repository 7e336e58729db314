package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.testing.RandomInstance;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExactInterNodeOptimumTest {

    /** a - b - c - d with weights 10, 1, 10. */
    private static final TopologyModel CHAIN = TopologyModel.withParallelism("chain",
            ComponentGraph.chain("a", "b", "c", "d"), Map.of("a", 1, "b", 1, "c", 1, "d", 1), 2);
    private static final TrafficMatrix CHAIN_TRAFFIC = TrafficMatrix.builder()
            .add(t(1), t(2), 10).add(t(2), t(3), 1).add(t(3), t(4), 10).build();

    @Test
    void cutsTheLightestEdgeWhenTwoWorkersMustSitOnTwoNodes() {
        ClusterModel c = ClusterModel.uniform(2, 1, Double.POSITIVE_INFINITY);
        ExactInterNodeOptimum.Result r = new ExactInterNodeOptimum(0, 1_000_000)
                .solve(CHAIN, c, CHAIN_TRAFFIC, ExecutorLoads.none()).orElseThrow();
        assertEquals(1.0, r.interNodeTraffic(), 1e-9);
        assertEquals(r.nodeOf().get(t(1)), r.nodeOf().get(t(2)));
        assertEquals(r.nodeOf().get(t(3)), r.nodeOf().get(t(4)));
    }

    @Test
    void capacityForcesAHeavierCut() {
        // With W' = 2 and M = 2 every node holds two executors; capacity 150 rules out {a,b} (160) and
        // {b,c} (180), leaving {a,c | b,d}.
        ClusterModel c = ClusterModel.of(List.of(Node.of("n1", List.of(1, 2), 150), Node.of("n2", List.of(1, 2), 150)));
        ExecutorLoads loads = ExecutorLoads.of(Map.of(t(1), 60.0, t(2), 100.0, t(3), 80.0, t(4), 10.0));
        ExactInterNodeOptimum.Result r = new ExactInterNodeOptimum(0, 1_000_000)
                .solve(CHAIN, c, CHAIN_TRAFFIC, loads).orElseThrow();
        assertEquals(21.0, r.interNodeTraffic(), 1e-9);
    }

    @Test
    void infeasibleAndAbortedSearchesAreFailureValues() {
        ClusterModel tiny = ClusterModel.of(List.of(Node.of("n1", List.of(1, 2), 10)));
        Outcome<ExactInterNodeOptimum.Result> o = new ExactInterNodeOptimum(0, 1_000_000)
                .solve(CHAIN, tiny, CHAIN_TRAFFIC, ExecutorLoads.of(Map.of(t(1), 20.0)));
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().startsWith("no placement"), o.reasonOrNull());

        Outcome<ExactInterNodeOptimum.Result> aborted = new ExactInterNodeOptimum(0, 2)
                .solve(CHAIN, ClusterModel.uniform(2, 2, Double.POSITIVE_INFINITY), CHAIN_TRAFFIC, ExecutorLoads.none());
        assertFalse(aborted.isSuccess());
        assertTrue(aborted.reasonOrNull().contains("search limit"), aborted.reasonOrNull());
    }

    @Test
    void agreesWithPlainEnumerationOnTinyRandomInstances() {
        RandomInstance.Shape tiny = new RandomInstance.Shape(2, 4, 2, 2, 3, 2, 1.3);
        int checked = 0;
        for (long seed = 1; seed <= 120; seed++) {
            RandomInstance in = RandomInstance.generate(seed, tiny);
            if (in.topology().executors().size() > 8) {
                continue;
            }
            for (double alpha : new double[] {0, 1}) {
                Outcome<ExactInterNodeOptimum.Result> bb = new ExactInterNodeOptimum(alpha, 10_000_000)
                        .solve(in.topology(), in.cluster(), in.traffic(), in.loads());
                double brute = enumerate(in, alpha);
                if (Double.isInfinite(brute)) {
                    assertFalse(bb.isSuccess(), "seed " + seed);
                } else {
                    assertEquals(brute, bb.orElseThrow().interNodeTraffic(), 1e-6, "seed " + seed);
                    checked++;
                }
            }
        }
        assertTrue(checked > 100, "checked " + checked);
    }

    /** Minimum over all executor → node maps that satisfy the constraints, checked directly. */
    private static double enumerate(RandomInstance in, double alpha) {
        List<ExecutorId> ex = in.topology().executorIds();
        List<Node> nodes = in.cluster().nodes();
        int workers = in.topology().effectiveWorkers();
        int limit = ExecutorsPerSlotLimit.of(alpha, ex.size(), workers);
        int combos = (int) Math.pow(nodes.size(), ex.size());
        double best = Double.POSITIVE_INFINITY;
        for (int code = 0; code < combos; code++) {
            int[] nodeOf = new int[ex.size()];
            int x = code;
            for (int i = 0; i < ex.size(); i++) {
                nodeOf[i] = x % nodes.size();
                x /= nodes.size();
            }
            int minWorkers = 0;
            int maxWorkers = 0;
            boolean ok = true;
            for (int n = 0; n < nodes.size(); n++) {
                int k = 0;
                double load = nodes.get(n).cpuBackground();
                for (int i = 0; i < ex.size(); i++) {
                    if (nodeOf[i] == n) {
                        k++;
                        load += in.loads().of(ex.get(i));
                    }
                }
                int ports = in.cluster().usableSlotsOn(nodes.get(n).id(), in.topology().id()).size();
                int need = (k + limit - 1) / limit;
                int most = Math.min(k, ports);
                ok &= need <= most && load <= nodes.get(n).cpuCapacity() + 1e-9;
                minWorkers += need;
                maxWorkers += most;
            }
            if (!ok || minWorkers > workers || maxWorkers < workers) {
                continue;
            }
            Map<ExecutorId, Integer> where = new HashMap<>();
            for (int i = 0; i < ex.size(); i++) {
                where.put(ex.get(i), nodeOf[i]);
            }
            best = Math.min(best, InterNodeTraffic.crossing(in.traffic(), where::get));
        }
        return best;
    }

    private static ExecutorId t(int task) {
        return ExecutorId.single(task);
    }
}
