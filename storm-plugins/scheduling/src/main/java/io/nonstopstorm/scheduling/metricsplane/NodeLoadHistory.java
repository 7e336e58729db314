package io.nonstopstorm.scheduling.metricsplane;

import io.nonstopstorm.scheduling.model.LoadSample;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Recent total CPU load samples per node, bounded in age and count: what the overload window of the
 * Aniello online scheduler looks back over. A sample not newer than the node's last is dropped, so
 * reading the same document in several rounds records it once. Time comes in as arguments.
 */
public final class NodeLoadHistory {

    private final long horizonMillis;
    private final int maxSamplesPerNode;
    private final Map<String, Deque<LoadSample>> samples = new TreeMap<>();

    /**
     * @param horizonMillis     samples older than this (relative to {@code now} in {@link #prune}) are dropped
     * @param maxSamplesPerNode at most this many per node are kept, the newest
     */
    public NodeLoadHistory(long horizonMillis, int maxSamplesPerNode) {
        if (horizonMillis <= 0 || maxSamplesPerNode <= 0) {
            throw new IllegalArgumentException("horizon and sample count must be positive");
        }
        this.horizonMillis = horizonMillis;
        this.maxSamplesPerNode = maxSamplesPerNode;
    }

    public void add(String node, LoadSample sample) {
        Deque<LoadSample> q = samples.computeIfAbsent(node, k -> new ArrayDeque<>());
        if (!q.isEmpty() && q.peekLast().timeMillis() >= sample.timeMillis()) {
            return;
        }
        q.addLast(sample);
        while (q.size() > maxSamplesPerNode) {
            q.removeFirst();
        }
    }

    /** Drops samples older than the horizon, and nodes left without any. */
    public void prune(long nowMillis) {
        samples.values().forEach(q -> q.removeIf(s -> nowMillis - s.timeMillis() > horizonMillis));
        samples.values().removeIf(Deque::isEmpty);
    }

    /** Oldest first, per node. */
    public Map<String, List<LoadSample>> snapshot() {
        Map<String, List<LoadSample>> out = new TreeMap<>();
        samples.forEach((node, q) -> out.put(node, List.copyOf(new ArrayList<>(q))));
        return out;
    }
}
