package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.testing.PlacementChecks;
import io.nonstopstorm.scheduling.testing.RandomInstance;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The online scheduler against the exact optimum under the same constraints ({@link ExactInterNodeOptimum}),
 * every seeded instance counted: a feasible instance the scheduler does not place is a miss, never left out
 * of the figures. Ratios are per instance (scheduler / optimum; an optimum of 0 counts 1 when matched).
 */
class AnielloOnlineQualityTest {

    /** Three sizes the exact search solves in milliseconds: 3–15, 4–18 and 4–24 executors on 2–4 nodes. */
    static final List<RandomInstance.Shape> SHAPES = List.of(RandomInstance.Shape.SMALL,
            new RandomInstance.Shape(4, 6, 3, 2, 4, 3, 1.2),
            new RandomInstance.Shape(4, 6, 4, 2, 4, 4, 1.2));
    static final long SEEDS = 100;

    /** Per-instance ratios and the feasible instances (size, seed) the scheduler did not place. */
    record Quality(List<Double> ratios, List<String> missed, int infeasible) {
        double mean() {
            return ratios.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        }

        double median() {
            List<Double> s = new ArrayList<>(ratios);
            Collections.sort(s);
            int n = s.size();
            return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
        }

        double max() {
            return ratios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }

        @Override
        public String toString() {
            return String.format("n=%d mean=%.4f median=%.4f max=%.4f missed-feasible=%d %s infeasible=%d",
                    ratios.size(), mean(), median(), max(), missed.size(), missed, infeasible);
        }
    }

    /** Both variants over seeds 1..SEEDS of every shape, the exact optimum solved once per instance. */
    private static Quality[] measure(double alpha) {
        ExactInterNodeOptimum exact = new ExactInterNodeOptimum(alpha, 50_000_000);
        AnielloOnlineScheduler[] variants = {new AnielloOnlineScheduler(alpha, false), new AnielloOnlineScheduler(alpha, true)};
        List<List<Double>> ratios = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<String>> missed = List.of(new ArrayList<>(), new ArrayList<>());
        int infeasible = 0;
        for (int size = 0; size < SHAPES.size(); size++) {
            RandomInstance.Shape shape = SHAPES.get(size);
            for (long seed = 1; seed <= SEEDS; seed++) {
                RandomInstance in = RandomInstance.generate(seed, shape);
                Outcome<ExactInterNodeOptimum.Result> opt = exact.solve(in.topology(), in.cluster(), in.traffic(), in.loads());
                assertTrue(opt.isSuccess() || opt.reasonOrNull().startsWith("no placement"), opt.reasonOrNull());
                if (!opt.isSuccess()) {
                    infeasible++;
                }
                for (int v = 0; v < variants.length; v++) {
                    Outcome<Placement> got = variants[v].schedule(in.topology(), in.cluster(), in.traffic(), in.loads(),
                            Placement.empty());
                    if (!opt.isSuccess()) {
                        assertFalse(got.isSuccess(), "placed an instance the exact search calls infeasible, seed " + seed);
                        assertTrue(got.reasonOrNull().startsWith("no room: "), got.reasonOrNull());
                        continue;
                    }
                    if (!got.isSuccess()) {
                        missed.get(v).add("size " + (size + 1) + " seed " + seed);
                        continue;
                    }
                    Placement p = got.orElseThrow();
                    assertMeetsConstraints(in, alpha, p);
                    double g = InterNodeTraffic.of(in.traffic(), p);
                    double o = opt.orElseThrow().interNodeTraffic();
                    assertTrue(g >= o - 1e-6, "optimum " + o + " above a feasible placement " + g + ", seed " + seed);
                    ratios.get(v).add(o > 1e-9 ? g / o : (g > 1e-6 ? Double.POSITIVE_INFINITY : 1.0));
                }
            }
        }
        Quality[] q = {new Quality(ratios.get(0), missed.get(0), infeasible),
                new Quality(ratios.get(1), missed.get(1), infeasible)};
        System.out.printf("Aniello online vs exact optimum, alpha=%.1f, seeds 1..%d of %d shapes:%n  paper greedy: %s%n"
                + "  refined:      %s%n", alpha, SEEDS, SHAPES.size(), q[0], q[1]);
        return q;
    }

    static void assertMeetsConstraints(RandomInstance in, double alpha, Placement p) {
        int w = in.topology().effectiveWorkers();
        PlacementChecks.assertCompleteAndOnUsableSlots(in.topology(), in.cluster(), p);
        assertEquals(w, p.usedSlots().size(), "exactly min(W,E) workers, seed " + in.seed());
        PlacementChecks.assertAtMostPerSlot(p, ExecutorsPerSlotLimit.of(alpha, in.topology().executors().size(), w));
        PlacementChecks.assertNodeCapacities(in.cluster(), in.loads(), p);
    }

    @Test
    void placesEveryFeasibleInstanceAndTheRefinedVariantStaysNearTheOptimum() {
        for (double alpha : new double[] {0, 1}) {
            Quality[] q = measure(alpha);
            assertEquals(List.of(), q[0].missed(), "paper greedy + repair: feasible instances not placed");
            assertEquals(List.of(), q[1].missed(), "refined: feasible instances not placed");
            assertTrue(q[1].mean() <= 1.10, "refined, alpha " + alpha + ": mean ratio " + q[1].mean());
            assertTrue(q[1].max() <= 1.5, "refined, alpha " + alpha + ": worst ratio " + q[1].max());
            // The paper's greedy alone keeps its measured level (a regression guard, not a target).
            assertTrue(q[0].mean() <= 1.25, "paper greedy, alpha " + alpha + ": mean ratio " + q[0].mean());
        }
    }

    @Test
    void failsOnlyWithAProofOfInfeasibility() {
        // Larger instances, beyond the exact search: every failure must be a proof ("no room: ..."), never
        // the repair giving up at its step bound.
        int placed = 0;
        for (long seed = 1; seed <= 300; seed++) {
            RandomInstance in = RandomInstance.generate(seed, RandomInstance.Shape.MEDIUM);
            for (double alpha : new double[] {0, 0.5, 1}) {
                Outcome<Placement> o = new AnielloOnlineScheduler(alpha, false)
                        .schedule(in.topology(), in.cluster(), in.traffic(), in.loads(), Placement.empty());
                if (o.isSuccess()) {
                    assertMeetsConstraints(in, alpha, o.orElseThrow());
                    placed++;
                } else {
                    assertTrue(o.reasonOrNull().startsWith("no room: "), "seed " + seed + ": " + o.reasonOrNull());
                }
            }
        }
        System.out.println("Aniello online, MEDIUM seeds 1..300 x 3 alphas: " + placed + " of 900 placed");
    }
}
