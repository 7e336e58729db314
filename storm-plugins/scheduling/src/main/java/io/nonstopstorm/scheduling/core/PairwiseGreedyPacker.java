package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.Outcome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The greedy step shared by both phases of Aniello's online scheduler (executors → workers, then
 * workers → nodes): walk the item pairs from the heaviest traffic down; if neither item is placed put
 * both in the least-loaded bin that takes them (or each in the least-loaded bin that takes it); if one
 * or both are placed, try every combination of their current bins plus the least-loaded bin and keep
 * the one that cuts the least traffic. Items without traffic go to the least-loaded bin at the end.
 *
 * <p>Bins have a count limit and a load limit; "least loaded" compares (background + load)/capacity,
 * then load, then item count, then bin index, so ties resolve deterministically.
 */
final class PairwiseGreedyPacker {

    private static final double EPS = 1e-9;

    /** An undirected weighted pair of items, weight = tuples/s exchanged. */
    record Pair(int a, int b, double weight) {
    }

    /** Capacity description of the bins. Arrays are indexed by bin. */
    record Bins(int[] countLimit, double[] loadLimit, double[] background, double[] capacity) {
        int size() {
            return countLimit.length;
        }
    }

    private final double[] itemLoad;
    private final List<Map<Integer, Double>> adjacency;
    private final Bins bins;
    private final IntFunction<String> itemName;
    private final int[] binOf;
    private final double[] binLoad;
    private final int[] binCount;

    PairwiseGreedyPacker(double[] itemLoad, List<Pair> pairs, Bins bins, IntFunction<String> itemName) {
        this.itemLoad = itemLoad.clone();
        this.bins = bins;
        this.itemName = itemName;
        this.adjacency = new ArrayList<>();
        for (int i = 0; i < itemLoad.length; i++) {
            adjacency.add(new TreeMap<>());
        }
        for (Pair p : pairs) {
            adjacency.get(p.a()).merge(p.b(), p.weight(), Double::sum);
            adjacency.get(p.b()).merge(p.a(), p.weight(), Double::sum);
        }
        this.binOf = new int[itemLoad.length];
        Arrays.fill(binOf, -1);
        this.binLoad = new double[bins.size()];
        this.binCount = new int[bins.size()];
    }

    /** Runs the greedy over {@code pairs} (any order; sorted here) and places the remaining items. */
    Outcome<int[]> pack(List<Pair> pairs) {
        List<Pair> sorted = new ArrayList<>(pairs);
        sorted.sort(Comparator.comparingDouble(Pair::weight).reversed()
                .thenComparingInt(Pair::a).thenComparingInt(Pair::b));
        for (Pair p : sorted) {
            String failure = placePair(p.a(), p.b());
            if (failure != null) {
                return Outcome.failure(failure);
            }
        }
        for (int i = 0; i < itemLoad.length; i++) {
            if (binOf[i] < 0) {
                int bin = leastLoaded(1, itemLoad[i]);
                if (bin < 0) {
                    return Outcome.failure(noRoom(i));
                }
                put(i, bin);
            }
        }
        return Outcome.success(binOf.clone());
    }

    /**
     * Makes every bin non-empty by moving, for each empty bin, the single item whose move cuts the least
     * extra traffic, taken from bins holding more than one item (Aniello: the topology must use exactly
     * its worker count). Returns a failure if some bin stays empty.
     */
    Outcome<int[]> fillEmptyBins() {
        for (int empty = 0; empty < bins.size(); empty++) {
            if (binCount[empty] > 0) {
                continue;
            }
            int bestItem = -1;
            double bestCost = Double.POSITIVE_INFINITY;
            for (int i = 0; i < itemLoad.length; i++) {
                int from = binOf[i];
                if (from < 0 || binCount[from] < 2 || !fits(empty, 1, itemLoad[i])) {
                    continue;
                }
                double cost = 0; // traffic to its current bin-mates becomes cut
                for (Map.Entry<Integer, Double> n : adjacency.get(i).entrySet()) {
                    if (binOf[n.getKey()] == from) {
                        cost += n.getValue();
                    }
                }
                if (cost < bestCost - EPS) {
                    bestCost = cost;
                    bestItem = i;
                }
            }
            if (bestItem < 0) {
                return Outcome.failure("cannot make bin " + empty + " non-empty: no movable item fits");
            }
            remove(bestItem);
            put(bestItem, empty);
        }
        return Outcome.success(binOf.clone());
    }

    private String placePair(int a, int b) {
        boolean aPlaced = binOf[a] >= 0;
        boolean bPlaced = binOf[b] >= 0;
        double la = itemLoad[a];
        double lb = itemLoad[b];
        if (!aPlaced && !bPlaced) {
            int both = leastLoaded(2, la + lb);
            if (both >= 0) {
                put(a, both);
                put(b, both);
                return null;
            }
            int ba = leastLoaded(1, la);
            if (ba < 0) {
                return noRoom(a);
            }
            put(a, ba);
            int bb = fits(ba, 1, lb) ? ba : leastLoaded(1, lb);
            if (bb < 0) {
                return noRoom(b);
            }
            put(b, bb);
            return null;
        }

        int oldA = binOf[a];
        int oldB = binOf[b];
        List<Integer> candidates = new ArrayList<>();
        if (oldA >= 0) {
            candidates.add(oldA);
        }
        if (oldB >= 0 && !candidates.contains(oldB)) {
            candidates.add(oldB);
        }
        if (aPlaced) {
            remove(a);
        }
        if (bPlaced) {
            remove(b);
        }
        int extra = leastLoaded(2, la + lb);
        if (extra < 0) {
            extra = leastLoaded(1, aPlaced ? lb : la);
        }
        if (extra >= 0 && !candidates.contains(extra)) {
            candidates.add(extra);
        }

        int bestA = -1;
        int bestB = -1;
        double bestCost = Double.POSITIVE_INFINITY;
        for (int ca : candidates) {
            for (int cb : candidates) {
                boolean feasible = ca == cb ? fits(ca, 2, la + lb) : fits(ca, 1, la) && fits(cb, 1, lb);
                if (!feasible) {
                    continue;
                }
                double cost = cutCost(a, ca, b) + cutCost(b, cb, a) + (ca == cb ? 0 : weight(a, b));
                if (cost < bestCost - EPS) {
                    bestCost = cost;
                    bestA = ca;
                    bestB = cb;
                }
            }
        }
        if (bestA >= 0) {
            put(a, bestA);
            put(b, bestB);
            return null;
        }
        // No combination fits both: keep what was placed where it was, place the other anywhere it fits.
        if (aPlaced) {
            put(a, oldA);
        }
        if (bPlaced) {
            put(b, oldB);
        }
        for (int item : new int[] {a, b}) {
            if (binOf[item] < 0) {
                int bin = leastLoaded(1, itemLoad[item]);
                if (bin < 0) {
                    return noRoom(item);
                }
                put(item, bin);
            }
        }
        return null;
    }

    /** Traffic of {@code item} with placed items outside {@code bin}, ignoring {@code except}. */
    private double cutCost(int item, int bin, int except) {
        double cost = 0;
        for (Map.Entry<Integer, Double> n : adjacency.get(item).entrySet()) {
            int other = n.getKey();
            if (other != except && binOf[other] >= 0 && binOf[other] != bin) {
                cost += n.getValue();
            }
        }
        return cost;
    }

    private double weight(int a, int b) {
        return adjacency.get(a).getOrDefault(b, 0.0);
    }

    private boolean fits(int bin, int count, double load) {
        return binCount[bin] + count <= bins.countLimit()[bin]
                && binLoad[bin] + load <= bins.loadLimit()[bin] + EPS;
    }

    /** The least-loaded bin that fits, or -1. */
    private int leastLoaded(int count, double load) {
        int best = -1;
        for (int bin = 0; bin < bins.size(); bin++) {
            if (!fits(bin, count, load)) {
                continue;
            }
            if (best < 0 || lessLoaded(bin, best)) {
                best = bin;
            }
        }
        return best;
    }

    private boolean lessLoaded(int x, int y) {
        int c = Double.compare(utilisation(x), utilisation(y));
        if (c != 0) {
            return c < 0;
        }
        c = Double.compare(binLoad[x], binLoad[y]);
        if (c != 0) {
            return c < 0;
        }
        c = Integer.compare(binCount[x], binCount[y]);
        return c != 0 ? c < 0 : x < y;
    }

    private double utilisation(int bin) {
        double cap = bins.capacity()[bin];
        double used = bins.background()[bin] + binLoad[bin];
        return Double.isInfinite(cap) || cap <= 0 ? 0 : used / cap;
    }

    private void put(int item, int bin) {
        binOf[item] = bin;
        binLoad[bin] += itemLoad[item];
        binCount[bin]++;
    }

    private void remove(int item) {
        int bin = binOf[item];
        binOf[item] = -1;
        binLoad[bin] -= itemLoad[item];
        binCount[bin]--;
    }

    private String noRoom(int item) {
        return "no room for " + itemName.apply(item) + " (load " + itemLoad[item] + ")";
    }
}
