package io.nonstopstorm.grouping.aggregate;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The downstream half of periodic aggregation: merges partial counts from any number of workers into
 * per-key totals, and counts the partial entries it received (the aggregation cost: KG sends one
 * entry per key and period, SG up to one per key, worker and period).
 */
public final class CountMerger<K> {
    private final Map<K, Long> totals = new HashMap<>();
    private long partialEntries;

    public void merge(Map<K, Long> partial) {
        for (Map.Entry<K, Long> e : partial.entrySet()) {
            totals.merge(e.getKey(), e.getValue(), Long::sum);
        }
        partialEntries += partial.size();
    }

    public long total(K key) {
        return totals.getOrDefault(key, 0L);
    }

    public Map<K, Long> totals() {
        return Collections.unmodifiableMap(totals);
    }

    /** Partial (key, count) entries merged so far. */
    public long partialEntries() {
        return partialEntries;
    }
}
