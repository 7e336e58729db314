package io.nonstopstorm.grouping.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Relative worker capacities over time: initial weights, and weight vectors that take over after a
 * given number of messages. Weights are relative: with target load {@code load}, worker w serves
 * {@code weight_w / (sum of initial weights * load)} messages per tick, so perfectly proportional
 * routing runs every worker at utilisation {@code load} (one message arrives per tick).
 */
public record CapacityPlan(double[] initial, List<Change> changes) {

    /** From message {@code atMessage} on, the weights are {@code weights}. */
    public record Change(long atMessage, double[] weights) {
    }

    public CapacityPlan {
        check(initial);
        List<Change> sorted = new ArrayList<>(changes);
        sorted.sort(Comparator.comparingLong(Change::atMessage));
        for (Change c : sorted) {
            check(c.weights());
            if (c.weights().length != initial.length) {
                throw new IllegalArgumentException("capacity change at message " + c.atMessage() + " has "
                        + c.weights().length + " weights, expected " + initial.length);
            }
        }
        changes = List.copyOf(sorted);
    }

    public int workers() {
        return initial.length;
    }

    /** Every worker with weight 1. */
    public static CapacityPlan homogeneous(int workers) {
        double[] w = new double[workers];
        Arrays.fill(w, 1.0);
        return new CapacityPlan(w, List.of());
    }

    /** The first {@code strong} workers are {@code factor} times stronger than the rest. */
    public static CapacityPlan heterogeneous(int workers, int strong, double factor) {
        if (strong < 0 || strong > workers) {
            throw new IllegalArgumentException("strong workers must be in [0, " + workers + "], got " + strong);
        }
        double[] w = new double[workers];
        Arrays.fill(w, 1.0);
        Arrays.fill(w, 0, strong, factor);
        return new CapacityPlan(w, List.of());
    }

    public CapacityPlan withChange(long atMessage, double[] weights) {
        List<Change> more = new ArrayList<>(changes);
        more.add(new Change(atMessage, weights));
        return new CapacityPlan(initial, more);
    }

    /** Service rates (messages per tick) in force at message index {@code message}. */
    public double[] serviceRatesAt(long message, double load) {
        double[] weights = initial;
        for (Change c : changes) {
            if (c.atMessage() <= message) {
                weights = c.weights();
            }
        }
        double total = Arrays.stream(initial).sum();
        double[] rates = new double[weights.length];
        for (int w = 0; w < rates.length; w++) {
            rates[w] = weights[w] / (total * load);
        }
        return rates;
    }

    private static void check(double[] weights) {
        if (weights == null || weights.length == 0) {
            throw new IllegalArgumentException("capacities must name at least one worker");
        }
        for (double w : weights) {
            if (!(w > 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("capacities must be finite and > 0, got " + Arrays.toString(weights));
            }
        }
    }
}
