package io.nonstopstorm.workloads.keyed;

import java.util.ArrayList;
import java.util.List;

/**
 * A fixed key sequence with a known distribution: keys k0..k(n-1), key i weighted i+1, interleaved
 * (smooth weighted round robin) so that any stretch of the sequence is close to the distribution.
 */
public final class KeyCycle {
    private KeyCycle() {
    }

    public static String key(int i) {
        return "k" + i;
    }

    public static List<String> cycle(int keys) {
        if (keys < 1) {
            throw new IllegalArgumentException("workload.keys must be >= 1, got " + keys);
        }
        int total = keys * (keys + 1) / 2;
        long[] current = new long[keys];
        List<String> out = new ArrayList<>(total);
        for (int n = 0; n < total; n++) {
            int best = 0;
            for (int i = 0; i < keys; i++) {
                current[i] += i + 1;
                if (current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= total;
            out.add(key(best));
        }
        return out;
    }
}
