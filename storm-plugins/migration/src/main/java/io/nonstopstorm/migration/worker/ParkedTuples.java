package io.nonstopstorm.migration.worker;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * Tuples that reached a worker for a task it does not host (yet): a peer may switch to an executor's
 * new home before that worker has started the executor. They wait here, in arrival order, until the
 * executor starts ({@link #drain}) or until they are {@code ttlMs} old ({@link #expire}; the acker then
 * replays them). Bounded twice: beyond {@code capacity} tuples or {@code maxBytes} of estimated heap
 * (a {@code sizeOf} estimate per tuple, e.g. {@link TupleSizeEstimate}) new arrivals are refused, and
 * the caller drops them for the acker to replay. Thread-safe.
 */
public final class ParkedTuples<T> {
    private record Parked<T>(T tuple, long atMs, long bytes) {
    }

    private final Map<Integer, ArrayDeque<Parked<T>>> byTask = new HashMap<>();
    private final long ttlMs;
    private final int capacity;
    private final long maxBytes;
    private final ToLongFunction<T> sizeOf;
    private int size;
    private long bytes;
    /** Why the last refusal happened, until {@link #boundNotice} reported it; reset by {@link #newMove}. */
    private String refusal;
    private boolean reported;

    public ParkedTuples(long ttlMs, int capacity, long maxBytes, ToLongFunction<T> sizeOf) {
        if (capacity < 0 || maxBytes < 0) {
            throw new IllegalArgumentException("parked tuple bounds must be >= 0, got " + capacity + " tuples, "
                                               + maxBytes + " bytes");
        }
        this.ttlMs = ttlMs;
        this.capacity = capacity;
        this.maxBytes = maxBytes;
        this.sizeOf = sizeOf;
    }

    /** @return false if full by count or by bytes (the caller drops the tuple) */
    public synchronized boolean park(int task, T tuple, long nowMs) {
        if (size >= capacity) {
            refused("the count bound of " + capacity + " tuples");
            return false;
        }
        long b = Math.max(0, sizeOf.applyAsLong(tuple));
        if (bytes + b > maxBytes) {
            refused("the byte bound of " + maxBytes + " bytes (" + bytes + " held, " + size + " tuples)");
            return false;
        }
        byTask.computeIfAbsent(task, k -> new ArrayDeque<>()).add(new Parked<>(tuple, nowMs, b));
        size++;
        bytes += b;
        return true;
    }

    private void refused(String bound) {
        if (refusal == null) {
            refusal = bound;
        }
    }

    /**
     * Which bound refused tuples, once per move: the first call after a refusal returns it, later calls
     * return empty until {@link #newMove}.
     */
    public synchronized Optional<String> boundNotice() {
        if (refusal == null || reported) {
            return Optional.empty();
        }
        reported = true;
        return Optional.of(refusal);
    }

    /** A new move begins: the next refusal is reported again. */
    public synchronized void newMove() {
        refusal = null;
        reported = false;
    }

    /** Removes and returns the tuples waiting for these tasks, oldest first per task. */
    public synchronized List<T> drain(Collection<Integer> tasks) {
        List<T> out = new ArrayList<>();
        for (int t : tasks) {
            ArrayDeque<Parked<T>> q = byTask.remove(t);
            if (q != null) {
                q.forEach(p -> {
                    out.add(p.tuple());
                    bytes -= p.bytes();
                });
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
                bytes -= q.pollFirst().bytes();
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

    /** Estimated heap the parked tuples hold. */
    public synchronized long bytes() {
        return bytes;
    }
}
