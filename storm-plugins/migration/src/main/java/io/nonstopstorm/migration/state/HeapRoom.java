package io.nonstopstorm.migration.state;

import java.util.Optional;

/**
 * Whether this worker's heap can take a handed-over snapshot (docs/state-handoff.md): a target that cannot
 * declines it at its first chunk and starts the task without the state, rather than dying of
 * OutOfMemoryError while assembling or restoring it (and again at every resend, with its other executors).
 * Pure: the caller passes the heap's numbers ({@link Heap}).
 */
public final class HeapRoom {
    /** The assembled bytes plus the objects restored from them: about twice the snapshot at the peak. */
    public static final long HEAP_FACTOR = 2;

    /** The heap's numbers now, in bytes. */
    public interface Heap {
        /** The most the heap may grow to ({@link Long#MAX_VALUE}: no limit). */
        long maxBytes();

        /** What is in use now, garbage not yet collected included. */
        long usedBytes();
    }

    /** This JVM's heap, as {@link Runtime} reports it. */
    public static final Heap THIS_JVM = new Heap() {
        @Override
        public long maxBytes() {
            return Runtime.getRuntime().maxMemory();
        }

        @Override
        public long usedBytes() {
            Runtime r = Runtime.getRuntime();
            return r.totalMemory() - r.freeMemory();
        }
    };

    private HeapRoom() {
    }

    /** Why {@code heap} cannot take a snapshot of {@code snapshotBytes}; empty when it can. */
    public static Optional<String> refusal(long snapshotBytes, Heap heap) {
        return refusal(snapshotBytes, heap.maxBytes(), heap.usedBytes());
    }

    /** Why a heap of {@code maxHeapBytes}, {@code usedHeapBytes} of them in use, cannot take the snapshot. */
    public static Optional<String> refusal(long snapshotBytes, long maxHeapBytes, long usedHeapBytes) {
        if (maxHeapBytes == Long.MAX_VALUE || snapshotBytes <= 0) {
            return Optional.empty();
        }
        long needed = snapshotBytes > Long.MAX_VALUE / HEAP_FACTOR ? Long.MAX_VALUE : HEAP_FACTOR * snapshotBytes;
        long free = Math.max(0, maxHeapBytes - usedHeapBytes);
        if (needed <= free) {
            return Optional.empty();
        }
        return Optional.of("this worker's heap cannot take a snapshot of " + snapshotBytes + " bytes: it needs about "
                           + needed + ", " + free + " of its " + maxHeapBytes + " are free");
    }
}
