package io.nonstopstorm.migration.worker;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Tuples that reached a worker for a task it does not host (yet): a peer may switch to an executor's
 * new home before that worker has started the executor. They wait here, in arrival order, until the
 * executor starts ({@link #drain}) or until they are {@code ttlMs} old ({@link #expire}; the acker then
 * replays them). Bounded: beyond {@code capacity} tuples new arrivals are refused. Thread-safe.
 */
public final class ParkedTuples<T> {
    private record Parked<T>(T tuple, long atMs) {
    }

    private final Map<Integer, ArrayDeque<Parked<T>>> byTask = new HashMap<>();
    private final long ttlMs;
    private final int capacity;
    private int size;

    public ParkedTuples(long ttlMs, int capacity) {
        this.ttlMs = ttlMs;
        this.capacity = capacity;
    }

    /** @return false if full (the caller drops the tuple) */
    public synchronized boolean park(int task, T tuple, long nowMs) {
        if (size >= capacity) {
            return false;
        }
        byTask.computeIfAbsent(task, k -> new ArrayDeque<>()).add(new Parked<>(tuple, nowMs));
        size++;
        return true;
    }

    /** Removes and returns the tuples waiting for these tasks, oldest first per task. */
    public synchronized List<T> drain(Collection<Integer> tasks) {
        List<T> out = new ArrayList<>();
        for (int t : tasks) {
            ArrayDeque<Parked<T>> q = byTask.remove(t);
            if (q != null) {
                q.forEach(p -> out.add(p.tuple()));
                size -= q.size();
            }
        }
        return out;
    }

    /** Drops tuples older than the time-to-live; returns how many. */
    public synchronized int expire(long nowMs) {
        int dropped = 0;
        for (Iterator<ArrayDeque<Parked<T>>> it = byTask.values().iterator(); it.hasNext(); ) {
            ArrayDeque<Parked<T>> q = it.next();
            while (!q.isEmpty() && nowMs - q.peekFirst().atMs() > ttlMs) {
                q.pollFirst();
                dropped++;
            }
            if (q.isEmpty()) {
                it.remove();
            }
        }
        size -= dropped;
        return dropped;
    }

    public synchronized int size() {
        return size;
    }
}
