package io.nonstopstorm.workloads.topk;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Key counts over one tumbling window: counted until {@link #close}, which ranks them and starts the next window. */
public final class WindowCounts {
    private Map<String, Long> counts = new HashMap<>();

    public void add(String key) {
        counts.merge(key, 1L, Long::sum);
    }

    public int distinctKeys() {
        return counts.size();
    }

    /** The window's top {@code k}; the counts start again from empty. */
    public List<Map.Entry<String, Long>> close(int k) {
        List<Map.Entry<String, Long>> top = Ranking.top(counts, k);
        counts = new HashMap<>();
        return top;
    }
}
