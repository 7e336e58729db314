package io.nonstopstorm.migration.state;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * Tuples that reach the new instance before its state is installed: held in arrival order, bounded by
 * their estimated bytes, released all at once when the gate opens. Unlike the worker's
 * {@code ParkedTuples} (tuples for an executor not started yet) it never expires or drops anything:
 * dropping would have the acker replay a tuple, and holding is what keeps each tuple counted once. A
 * full buffer is a value, {@link Admission#FULL}, for the caller to turn into back pressure; the tuple
 * is then not held. Thread-safe: the receiving thread offers, the executor's thread releases.
 */
public final class EarlyTupleBuffer<T> {

    public enum Admission {
        HELD,
        /** Over the byte bound: not held; the caller must keep it and slow its senders. */
        FULL
    }

    private record Held<T>(T tuple, long bytes) {
    }

    private final ArrayDeque<Held<T>> held = new ArrayDeque<>();
    private final long maxBytes;
    private final ToLongFunction<T> sizeOf;
    private long bytes;

    /** @param sizeOf estimated bytes of a tuple (e.g. the worker's {@code TupleSizeEstimate}) */
    public EarlyTupleBuffer(long maxBytes, ToLongFunction<T> sizeOf) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("early tuple buffer bound must be >= 0 bytes, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.sizeOf = Objects.requireNonNull(sizeOf, "sizeOf");
    }

    public synchronized Admission offer(T tuple) {
        Objects.requireNonNull(tuple, "tuple");
        long b = Math.max(0, sizeOf.applyAsLong(tuple));
        if (bytes + b > maxBytes) {
            return Admission.FULL;
        }
        held.add(new Held<>(tuple, b));
        bytes += b;
        return Admission.HELD;
    }

    /** Removes and returns every held tuple, oldest first. */
    public synchronized List<T> release() {
        List<T> out = new ArrayList<>(held.size());
        held.forEach(h -> out.add(h.tuple()));
        held.clear();
        bytes = 0;
        return out;
    }

    public synchronized int size() {
        return held.size();
    }

    public synchronized long bytes() {
        return bytes;
    }

    public long maxBytes() {
        return maxBytes;
    }
}
