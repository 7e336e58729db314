package io.nonstopstorm.scheduling.otd;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One topology's state as OTD sees it: its workers with their loads, where each executor runs,
 * and the measured communication cost CC (tuples/s) per directed executor pair.
 */
public record OtdSnapshot(List<WorkerLoad> workers, Map<String, String> executorToWorker,
                          Map<Pair, Double> traffic) {

    /** A directed executor pair. */
    public record Pair(String from, String to) {
    }

    public OtdSnapshot {
        workers = List.copyOf(workers);
        executorToWorker = Map.copyOf(executorToWorker);
        traffic = Map.copyOf(traffic);
        Set<String> ids = new java.util.HashSet<>();
        for (WorkerLoad w : workers) {
            if (!ids.add(w.worker())) {
                throw new IllegalArgumentException("worker listed twice: " + w.worker());
            }
        }
        for (Map.Entry<String, String> e : executorToWorker.entrySet()) {
            if (!ids.contains(e.getValue())) {
                throw new IllegalArgumentException("executor " + e.getKey() + " is on unknown worker " + e.getValue());
            }
        }
        for (Map.Entry<Pair, Double> t : traffic.entrySet()) {
            if (t.getValue() < 0 || t.getValue().isNaN()) {
                throw new IllegalArgumentException("negative or NaN traffic " + t.getValue() + " for " + t.getKey());
            }
        }
    }

    public Map<String, WorkerLoad> workersById() {
        Map<String, WorkerLoad> m = new TreeMap<>();
        workers.forEach(w -> m.put(w.worker(), w));
        return m;
    }

    /** Executors per worker, for the "full worker" rule. */
    public Map<String, Integer> executorCounts() {
        Map<String, Integer> m = new TreeMap<>();
        workers.forEach(w -> m.put(w.worker(), 0));
        executorToWorker.values().forEach(w -> m.merge(w, 1, Integer::sum));
        return m;
    }
}
