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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnielloOnlineSchedulerTest {

    /** a(2) -> b(2); tasks a1=1, a2=2, b1=3, b2=4. Heavy a1-b1 and a2-b2, light cross pairs. */
    private static final TopologyModel PAIRS = TopologyModel.withParallelism("pairs",
            ComponentGraph.chain("a", "b"), Map.of("a", 2, "b", 2), 2);
    private static final TrafficMatrix PAIR_TRAFFIC = TrafficMatrix.builder()
            .add(t(1), t(3), 100).add(t(2), t(4), 100).add(t(1), t(4), 1).add(t(2), t(3), 1).build();

    @Test
    void colocatesHeavyPairsInOneWorker() {
        ClusterModel c = ClusterModel.uniform(2, 1, Double.POSITIVE_INFINITY);
        Placement p = new AnielloOnlineScheduler(0).schedule(PAIRS, c, PAIR_TRAFFIC, ExecutorLoads.none(), Placement.empty())
                .orElseThrow();
        assertEquals(p.slotOf(t(1)), p.slotOf(t(3)));
        assertEquals(p.slotOf(t(2)), p.slotOf(t(4)));
        assertEquals(2, p.usedSlots().size());
        assertEquals(2.0, InterNodeTraffic.of(PAIR_TRAFFIC, p), 1e-9);
    }

    @Test
    void putsBothWorkersOnOneNodeWhenItHasTheRoom() {
        ClusterModel c = ClusterModel.of(List.of(Node.of("n1", List.of(1)), Node.of("n2", List.of(1, 2))));
        Placement p = new AnielloOnlineScheduler(0).schedule(PAIRS, c, PAIR_TRAFFIC, ExecutorLoads.none(), Placement.empty())
                .orElseThrow();
        assertEquals(Set.of("n2"), p.usedNodes());
        assertEquals(0.0, InterNodeTraffic.of(PAIR_TRAFFIC, p), 1e-9);
    }

    @Test
    void nodeCapacitySplitsWorkersOverNodes() {
        ClusterModel c = ClusterModel.of(List.of(Node.of("n1", List.of(1, 2), 250), Node.of("n2", List.of(1, 2), 250)));
        ExecutorLoads loads = ExecutorLoads.of(Map.of(t(1), 100.0, t(2), 100.0, t(3), 100.0, t(4), 100.0));
        Placement p = new AnielloOnlineScheduler(0).schedule(PAIRS, c, PAIR_TRAFFIC, loads, Placement.empty()).orElseThrow();
        assertEquals(Set.of("n1", "n2"), p.usedNodes());
        assertEquals(2.0, InterNodeTraffic.of(PAIR_TRAFFIC, p), 1e-9);
        PlacementChecks.assertNodeCapacities(c, loads, p);
    }

    @Test
    void failsAsAValueWhenNoNodeCanCarryTheLoad() {
        ClusterModel c = ClusterModel.of(List.of(Node.of("n1", List.of(1, 2), 150)));
        ExecutorLoads loads = ExecutorLoads.of(Map.of(t(1), 50.0, t(2), 50.0, t(3), 50.0, t(4), 50.0));
        Outcome<Placement> o = new AnielloOnlineScheduler(0).schedule(PAIRS, c, PAIR_TRAFFIC, loads, Placement.empty());
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().contains("no room"), o.reasonOrNull());
    }

    @Test
    void repairPlacesFeasibleInstancesWhereTheGreedyPhasesFindNoRoom() {
        // Small seeds on which the two greedy phases alone reported "no room" although the exact search
        // finds a placement (phase 1 packs by the largest node's room, phase 2 then cannot fit the workers).
        for (long seed : new long[] {11, 21, 23, 25, 32}) {
            RandomInstance in = RandomInstance.generate(seed, RandomInstance.Shape.SMALL);
            assertTrue(new ExactInterNodeOptimum(0, 50_000_000)
                    .solve(in.topology(), in.cluster(), in.traffic(), in.loads()).isSuccess(), "feasible, seed " + seed);
            for (boolean refine : new boolean[] {false, true}) {
                Placement p = new AnielloOnlineScheduler(0, refine)
                        .schedule(in.topology(), in.cluster(), in.traffic(), in.loads(), Placement.empty()).orElseThrow();
                int w = in.topology().effectiveWorkers();
                PlacementChecks.assertCompleteAndOnUsableSlots(in.topology(), in.cluster(), p);
                assertEquals(w, p.usedSlots().size(), "exactly min(W,E) workers, seed " + seed);
                PlacementChecks.assertAtMostPerSlot(p, ExecutorsPerSlotLimit.of(0, in.topology().executors().size(), w));
                PlacementChecks.assertNodeCapacities(in.cluster(), in.loads(), p);
            }
        }
    }

    @Test
    void usesExactlyMinOfWorkersAndExecutorsEvenWhenOneWorkerCouldHoldAll() {
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a", "b"), Map.of("a", 3, "b", 3), 3);
        TrafficMatrix tr = TrafficMatrix.builder().add(t(1), t(4), 10).add(t(2), t(5), 20).add(t(3), t(6), 30).build();
        Placement p = new AnielloOnlineScheduler(1).schedule(t, ClusterModel.uniform(1, 4, Double.POSITIVE_INFINITY), tr,
                ExecutorLoads.none(), Placement.empty()).orElseThrow();
        assertEquals(3, p.usedSlots().size());
    }

    @Test
    void keepsWorkersOnTheirCurrentPorts() {
        ClusterModel c = ClusterModel.uniform(1, 3, Double.POSITIVE_INFINITY);
        // Current: {a1,b1} on port 3, {a2,b2} on port 2. The candidate has the same workers: they stay put.
        Placement current = Placement.of(Map.of(t(1), new SlotId("n1", 3), t(3), new SlotId("n1", 3),
                t(2), new SlotId("n1", 2), t(4), new SlotId("n1", 2)));
        ClusterModel owned = c.withOwnedSlots("pairs", current.usedSlots());
        Placement p = new AnielloOnlineScheduler(0).schedule(PAIRS, owned, PAIR_TRAFFIC, ExecutorLoads.none(), current)
                .orElseThrow();
        assertEquals(current, p);
    }

    @Test
    void randomInstancesRespectAllConstraintsAndAreIdempotent() {
        int scheduled = 0;
        for (long seed = 1; seed <= 300; seed++) {
            RandomInstance in = RandomInstance.generate(seed, RandomInstance.Shape.MEDIUM);
            for (double alpha : new double[] {0, 0.5}) {
              for (boolean refine : new boolean[] {false, true}) {
                AnielloOnlineScheduler s = new AnielloOnlineScheduler(alpha, refine);
                Outcome<Placement> o = s.schedule(in.topology(), in.cluster(), in.traffic(), in.loads(), Placement.empty());
                if (!o.isSuccess()) {
                    continue;
                }
                scheduled++;
                Placement p = o.orElseThrow();
                int w = in.topology().effectiveWorkers();
                PlacementChecks.assertCompleteAndOnUsableSlots(in.topology(), in.cluster(), p);
                assertEquals(w, p.usedSlots().size(), "exactly min(W,E) workers, seed " + seed);
                PlacementChecks.assertAtMostPerSlot(p, ExecutorsPerSlotLimit.of(alpha, in.topology().executors().size(), w));
                PlacementChecks.assertNodeCapacities(in.cluster(), in.loads(), p);

                ClusterModel after = in.cluster().withOwnedSlots(in.topology().id(), p.usedSlots());
                Placement again = s.schedule(in.topology(), after, in.traffic(), in.loads(), p).orElseThrow();
                assertEquals(p, again, "idempotent, seed " + seed);
                RescheduleDecision d = new AnielloRescheduleRule(10, 30_000, Map.of())
                        .decide(in.topology(), after, in.traffic(), in.loads(), p, again, Map.of(), 0);
                assertFalse(d.apply(), "rerun must not trigger a reschedule, seed " + seed);
              }
            }
        }
        assertTrue(scheduled > 900, "most random instances are schedulable (" + scheduled + ")");
    }

    /** Aggregate result of one variant over the seeded batch. */
    private record Gap(int compared, int optimal, int greedyFailed, double sumGreedy, double sumOptimum, double worst) {
        double ratio() {
            return sumGreedy / sumOptimum;
        }
    }

    private static Gap gapToOptimum(double alpha, boolean refine, int seeds) {
        ExactInterNodeOptimum exact = new ExactInterNodeOptimum(alpha, 20_000_000);
        AnielloOnlineScheduler online = new AnielloOnlineScheduler(alpha, refine);
        double sumGreedy = 0;
        double sumOptimum = 0;
        double worst = 1;
        int compared = 0;
        int optimal = 0;
        int greedyFailed = 0;
        for (long seed = 1; seed <= seeds; seed++) {
            RandomInstance in = RandomInstance.generate(seed, RandomInstance.Shape.SMALL);
            Outcome<ExactInterNodeOptimum.Result> opt = exact.solve(in.topology(), in.cluster(), in.traffic(), in.loads());
            Outcome<Placement> greedy = online.schedule(in.topology(), in.cluster(), in.traffic(), in.loads(), Placement.empty());
            if (!opt.isSuccess()) {
                assertTrue(opt.reasonOrNull().startsWith("no placement"), opt.reasonOrNull());
                assertFalse(greedy.isSuccess(), "greedy found a placement the exact search calls infeasible, seed " + seed);
                continue;
            }
            if (!greedy.isSuccess()) {
                greedyFailed++;
                continue;
            }
            double g = InterNodeTraffic.of(in.traffic(), greedy.orElseThrow());
            double o = opt.orElseThrow().interNodeTraffic();
            assertTrue(g >= o - 1e-6, "optimum " + o + " must not exceed a feasible placement " + g + ", seed " + seed);
            sumGreedy += g;
            sumOptimum += o;
            compared++;
            if (g <= o + 1e-6) {
                optimal++;
            } else {
                worst = Math.max(worst, o > 0 ? g / o : Double.POSITIVE_INFINITY);
            }
        }
        Gap gap = new Gap(compared, optimal, greedyFailed, sumGreedy, sumOptimum, worst);
        System.out.printf("Aniello online (alpha=%.1f, %s) vs exact optimum over %d seeds: %d compared, %d optimal,"
                        + " greedy failed on %d feasible; aggregate ratio %.4f (%.1f vs %.1f tuple/s), worst %.3f%n",
                alpha, refine ? "refined" : "paper greedy", seeds, compared, optimal, greedyFailed, gap.ratio(),
                sumGreedy, sumOptimum, worst);
        return gap;
    }

    /**
     * The gaps for alpha 0 and 0.5 over 200 seeds, each checked: every feasible instance placed, enough
     * compared, and the aggregate within {@code maxRatio} of the optimum.
     */
    private static List<Gap> gapsWithin(boolean refine, double maxRatio) {
        List<Gap> gaps = new ArrayList<>();
        for (double alpha : new double[] {0, 0.5}) {
            Gap gap = gapToOptimum(alpha, refine, 200);
            assertEquals(0, gap.greedyFailed(), "every feasible instance placed");
            assertTrue(gap.compared() >= 190, "enough comparable instances (" + gap.compared() + ")");
            assertTrue(gap.ratio() <= maxRatio, "alpha " + alpha + ": aggregate ratio to the optimum " + gap.ratio()
                    + " > " + maxRatio);
            gaps.add(gap);
        }
        return gaps;
    }

    @Test
    void refinedVariantIsWithinTenPercentOfTheExactOptimumOnSmallInstances() {
        gapsWithin(true, 1.10);
    }

    @Test
    void paperGreedyStaysCloseToTheExactOptimumOnSmallInstances() {
        // The two greedy phases alone do not reach 10 % on these instances (phase 1 fixes worker contents
        // before node capacities are known); this guards the measured level against regressions. Where
        // they find no room on a feasible instance the repair places it, so none is left out.
        for (Gap gap : gapsWithin(false, 1.15)) {
            assertTrue(gap.optimal() >= gap.compared() / 2, "at least half optimal: " + gap.optimal());
        }
    }

    private static ExecutorId t(int task) {
        return ExecutorId.single(task);
    }

}
