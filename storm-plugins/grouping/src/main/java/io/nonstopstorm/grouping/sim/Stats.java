package io.nonstopstorm.grouping.sim;

import java.util.List;
import java.util.function.IntPredicate;

/** Small statistics helpers of the simulator. */
final class Stats {
    private Stats() {
    }

    /** max - mean of the values (the paper's imbalance when the values are utilisations). */
    static double maxMinusMean(double[] values) {
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        for (double v : values) {
            max = Math.max(max, v);
            sum += v;
        }
        return values.length == 0 ? 0 : max - sum / values.length;
    }

    /** max - min of the values. */
    static double maxMinusMin(double[] values) {
        double max = Double.NEGATIVE_INFINITY;
        double min = Double.POSITIVE_INFINITY;
        for (double v : values) {
            max = Math.max(max, v);
            min = Math.min(min, v);
        }
        return values.length == 0 ? 0 : max - min;
    }

    /** Mean of the entries whose index passes the filter; 0 if none does. */
    static double mean(List<Double> values, IntPredicate include) {
        double sum = 0;
        int count = 0;
        for (int i = 0; i < values.size(); i++) {
            if (include.test(i)) {
                sum += values.get(i);
                count++;
            }
        }
        return count == 0 ? 0 : sum / count;
    }

    static double meanInt(List<Integer> values) {
        return values.stream().mapToInt(Integer::intValue).average().orElse(0);
    }

    /** Nearest-rank percentile of sorted values; 0 if empty. */
    static long percentile(int[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
