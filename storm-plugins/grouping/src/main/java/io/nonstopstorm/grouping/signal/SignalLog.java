package io.nonstopstorm.grouping.signal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A signal path that keeps every signal: each source reads the log from the beginning, at its own pace.
 * Sources of one JVM that start routing at different times therefore still apply the same signals in the
 * same order and end up with the same virtual-worker table. Signals are rare (at most one per worker per
 * time slot), so keeping them all costs little. Thread-safe.
 */
public final class SignalLog implements LoadSignals {
    private final List<WorkerSignal> log = new ArrayList<>();
    private final Map<Integer, Integer> cursors = new HashMap<>();

    @Override
    public synchronized void publish(int worker, LoadSignal signal) {
        log.add(new WorkerSignal(worker, signal));
    }

    @Override
    public synchronized List<WorkerSignal> poll(int source) {
        int from = cursors.getOrDefault(source, 0);
        if (from == log.size()) {
            return List.of();
        }
        cursors.put(source, log.size());
        return List.copyOf(log.subList(from, log.size()));
    }

    /** Signals published so far. */
    public synchronized int size() {
        return log.size();
    }
}
