package io.nonstopstorm.workloads.measure;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Count, mean and exact percentiles of a set of latencies (microseconds in, milliseconds out). */
public record LatencySummary(long count, double meanMs, double p50Ms, double p95Ms, double p99Ms, double maxMs) {
    public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0);

    /** Summarises {@code n} values of {@code micros}; sorts that prefix of the array in place. */
    public static LatencySummary of(long[] micros, int n) {
        if (n == 0) {
            return EMPTY;
        }
        Arrays.sort(micros, 0, n);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += micros[i];
        }
        return new LatencySummary(n, sum / n / 1000.0, rank(micros, n, 0.50), rank(micros, n, 0.95),
            rank(micros, n, 0.99), micros[n - 1] / 1000.0);
    }

    /** Nearest-rank percentile of a sorted prefix. */
    private static double rank(long[] sorted, int n, double q) {
        int idx = (int) Math.ceil(q * n) - 1;
        return sorted[Math.max(0, Math.min(n - 1, idx))] / 1000.0;
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n", count);
        m.put("mean", SecondStats.round3(meanMs));
        m.put("p50", SecondStats.round3(p50Ms));
        m.put("p95", SecondStats.round3(p95Ms));
        m.put("p99", SecondStats.round3(p99Ms));
        m.put("max", SecondStats.round3(maxMs));
        return m;
    }
}
