package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.testing.PlacementChecks;
import io.nonstopstorm.scheduling.testing.RandomInstance;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnielloOfflineSchedulerTest {

    /** spout(2) -> split(2) -> count(2), 3 workers; tasks 1-2 spout, 3-4 split, 5-6 count. */
    private static final TopologyModel WORDCOUNT = TopologyModel.withParallelism("wc",
            ComponentGraph.chain("spout", "split", "count"), Map.of("spout", 2, "split", 2, "count", 2), 3);
    private static final ClusterModel TWO_BY_TWO = ClusterModel.uniform(2, 2, Double.POSITIVE_INFINITY);

    @Test
    void limitPerSlotFollowsAlpha() {
        assertEquals(4, ExecutorsPerSlotLimit.of(0, 10, 3));      // ⌈10/3⌉
        assertEquals(8, ExecutorsPerSlotLimit.of(1, 10, 3));      // E − W + 1
        assertEquals(5, ExecutorsPerSlotLimit.of(0.25, 10, 3));   // 4 + ⌈0.25·4⌉
        assertEquals(6, ExecutorsPerSlotLimit.of(0.5, 10, 3));    // 4 + ⌈0.5·4⌉
        assertEquals(1, ExecutorsPerSlotLimit.of(0.7, 5, 5));
        assertThrows(IllegalArgumentException.class, () -> ExecutorsPerSlotLimit.of(1.5, 10, 3));
    }

    @Test
    void downstreamExecutorsJoinTheirUpstreamSlotsAndWorkersGoRoundRobinOverNodes() {
        Placement p = new AnielloOfflineScheduler(0, 1).schedule(WORDCOUNT, TWO_BY_TWO).orElseThrow();
        // Worker 0 = {spout1, split1} -> n1:1, worker 1 = {spout2, split2} -> n2:1, worker 2 = {count1, count2} -> n1:2
        assertEquals(Map.of(
                new SlotId("n1", 1), List.of(task(1), task(3)),
                new SlotId("n2", 1), List.of(task(2), task(4)),
                new SlotId("n1", 2), List.of(task(5), task(6))), p.executorsBySlot());
    }

    @Test
    void betaZeroForcesEmptySlotsFirst() {
        Placement p = new AnielloOfflineScheduler(0, 0).schedule(WORDCOUNT, TWO_BY_TWO).orElseThrow();
        // spout fills workers 0,1; split1 is forced into empty worker 2, split2 joins spout1; count1 joins split1
        // in worker 2, count2 overflows to the only worker with room (spout2's).
        assertEquals(Map.of(
                new SlotId("n1", 1), List.of(task(1), task(4)),
                new SlotId("n2", 1), List.of(task(2), task(6)),
                new SlotId("n1", 2), List.of(task(3), task(5))), p.executorsBySlot());
    }

    @Test
    void alphaOneLetsUpstreamSlotsAbsorbEverythingAndLeavesAWorkerUnused() {
        Placement p = new AnielloOfflineScheduler(1, 1).schedule(WORDCOUNT, TWO_BY_TWO).orElseThrow();
        assertEquals(Map.of(
                new SlotId("n1", 1), List.of(task(1), task(3), task(5)),
                new SlotId("n2", 1), List.of(task(2), task(4), task(6))), p.executorsBySlot());
    }

    @Test
    void skipsSlotsHeldByOtherTopologies() {
        ClusterModel c = new ClusterModel(TWO_BY_TWO.nodes(), Map.of(new SlotId("n1", 1), "other"));
        Placement p = new AnielloOfflineScheduler(0, 1).schedule(WORDCOUNT, c).orElseThrow();
        assertEquals(Set.of(new SlotId("n1", 2), new SlotId("n2", 1), new SlotId("n2", 2)), p.usedSlots());
    }

    @Test
    void failsAsAValueWhenTooFewSlots() {
        ClusterModel c = ClusterModel.uniform(1, 2, Double.POSITIVE_INFINITY);
        Outcome<Placement> o = new AnielloOfflineScheduler(0, 1).schedule(WORDCOUNT, c);
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().contains("needs 3 slots but only 2"), o.reasonOrNull());
    }

    @Test
    void randomInstancesRespectWorkersLimitAndAreIdempotent() {
        double[][] params = {{0, 0}, {0, 1}, {0.5, 0.5}, {1, 0.3}};
        for (long seed = 1; seed <= 150; seed++) {
            RandomInstance in = RandomInstance.generate(seed, RandomInstance.Shape.MEDIUM);
            for (double[] ab : params) {
                AnielloOfflineScheduler s = new AnielloOfflineScheduler(ab[0], ab[1]);
                Placement p = s.schedule(in.topology(), in.cluster()).orElseThrow();
                PlacementChecks.assertCompleteAndOnUsableSlots(in.topology(), in.cluster(), p);
                int w = in.topology().effectiveWorkers();
                assertTrue(p.usedSlots().size() <= w, "seed " + seed);
                PlacementChecks.assertAtMostPerSlot(p, ExecutorsPerSlotLimit.of(ab[0], in.topology().executors().size(), w));
                if (ab[1] == 0) {
                    assertEquals(w, p.usedSlots().size(), "beta = 0 forces every worker into use, seed " + seed);
                }
                ClusterModel after = in.cluster().withOwnedSlots(in.topology().id(), p.usedSlots());
                assertEquals(p, s.schedule(in.topology(), after).orElseThrow(), "idempotent, seed " + seed);
            }
        }
    }

    private static ExecutorId task(int t) {
        return ExecutorId.single(t);
    }
}
