package io.nonstopstorm.grouping.aggregate;

import java.util.HashMap;
import java.util.Map;

/**
 * The per-worker half of periodic aggregation: a worker counts the keys it receives and, once per
 * period, hands its partial counts downstream and starts afresh. Because a key routed by PKG, CH or
 * CG may be counted on several workers, only the merge of all partials is the key's count.
 */
public final class PartialCounts<K> {
    private Map<K, Long> counts = new HashMap<>();

    public void add(K key) {
        counts.merge(key, 1L, Long::sum);
    }

    /** Number of distinct keys counted since the last drain. */
    public int size() {
        return counts.size();
    }

    /** Returns the partial counts since the last drain and resets them. */
    public Map<K, Long> drain() {
        Map<K, Long> out = counts;
        counts = new HashMap<>();
        return out;
    }
}
