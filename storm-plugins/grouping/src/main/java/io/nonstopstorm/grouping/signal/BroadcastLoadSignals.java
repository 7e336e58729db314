package io.nonstopstorm.grouping.signal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Delivers every published signal at once to every source that has subscribed (or polled) before it
 * was published. Thread-safe. A source that joins late does not see older signals: it is eventually
 * consistent only with respect to signals sent after it joined, which the paper's model tolerates.
 */
public final class BroadcastLoadSignals implements LoadSignals {
    private final Map<Integer, Queue<WorkerSignal>> inboxes = new ConcurrentHashMap<>();

    /** Registers a source so that it receives signals published from now on. */
    public void subscribe(int source) {
        inboxes.computeIfAbsent(source, s -> new ConcurrentLinkedQueue<>());
    }

    @Override
    public void publish(int worker, LoadSignal signal) {
        WorkerSignal message = new WorkerSignal(worker, signal);
        for (Queue<WorkerSignal> inbox : inboxes.values()) {
            inbox.add(message);
        }
    }

    @Override
    public List<WorkerSignal> poll(int source) {
        Queue<WorkerSignal> inbox = inboxes.computeIfAbsent(source, s -> new ConcurrentLinkedQueue<>());
        List<WorkerSignal> arrived = new ArrayList<>();
        WorkerSignal next;
        while ((next = inbox.poll()) != null) {
            arrived.add(next);
        }
        return arrived;
    }
}
