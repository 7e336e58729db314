package io.nonstopstorm.metrics.core;

import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which executor each task of this worker belongs to. The executor ranges come from the executor threads'
 * names; a task no known range contains (its thread has not started yet) is taken as its own executor,
 * which is what Storm does unless a component has more tasks than executors.
 */
public final class ExecutorGrouping {
    private ExecutorGrouping() {
    }

    public static Map<ExecutorId, List<Integer>> group(Collection<Integer> tasks, Collection<ExecutorId> known) {
        Map<ExecutorId, List<Integer>> out = new TreeMap<>();
        for (int task : tasks) {
            ExecutorId home = null;
            for (ExecutorId e : known) {
                if (e.contains(task)) {
                    home = e;
                    break;
                }
            }
            out.computeIfAbsent(home != null ? home : ExecutorId.single(task), k -> new ArrayList<>()).add(task);
        }
        for (List<Integer> l : out.values()) {
            l.sort(null);
        }
        return out;
    }
}
