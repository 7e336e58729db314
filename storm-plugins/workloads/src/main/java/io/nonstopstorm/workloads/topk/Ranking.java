package io.nonstopstorm.workloads.topk;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Top-K over key counts: the one ranking rule (count descending, then key ascending, so ties are stable). */
public final class Ranking {
    private static final Comparator<Map.Entry<String, Long>> ORDER =
        Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey());

    private Ranking() {
    }

    /** The {@code k} keys with the highest counts, as (key, count) pairs in rank order. */
    public static List<Map.Entry<String, Long>> top(Map<String, Long> counts, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        List<Map.Entry<String, Long>> all = new ArrayList<>(counts.entrySet());
        all.sort(ORDER);
        List<Map.Entry<String, Long>> out = new ArrayList<>();
        for (Map.Entry<String, Long> e : all.subList(0, Math.min(k, all.size()))) {
            out.add(Map.entry(e.getKey(), e.getValue()));
        }
        return out;
    }

    /**
     * Merges partial rankings of disjoint key sets (each key counted by one task, as fields grouping
     * guarantees) into the global top {@code k}: the top k of the union is within the union of each part's top k.
     */
    public static List<Map.Entry<String, Long>> merge(Iterable<List<Map.Entry<String, Long>>> parts, int k) {
        Map<String, Long> union = new HashMap<>();
        for (List<Map.Entry<String, Long>> part : parts) {
            for (Map.Entry<String, Long> e : part) {
                union.merge(e.getKey(), e.getValue(), Long::sum);
            }
        }
        return top(union, k);
    }
}
