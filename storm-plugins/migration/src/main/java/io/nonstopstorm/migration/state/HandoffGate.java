package io.nonstopstorm.migration.state;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * The target's side of one task's handoff: the new instance's gate. While it is closed, tuples for the
 * task are held in arrival order ({@link EarlyTupleBuffer}) and snapshot chunks are reassembled
 * ({@link SnapshotAssembler}); the gate opens when the snapshot is installed, or without a state when
 * the deadline passes (the source is gone or gave up: today's behaviour, a new instance starting empty).
 * A full early buffer does not open it (F7): opening there would start the instance without the state
 * that is on its way. The tuple that did not fit, and any after it, are still held in arrival order, and
 * the gate reports {@link #full()}: the caller's cue to stop taking tuples from its queue until the gate
 * opens, so that Storm's own back pressure holds the senders. Every method returns the tuples to process
 * now, oldest first. Thread-safe, on its own monitor: chunks may be assembled on the worker's receive
 * thread while the executor's thread holds tuples (and waits on the gate while it is full).
 *
 * @param <T> the runtime's tuple type
 */
public final class HandoffGate<T> {
    private final HandoffLimits limits;
    private final EarlyTupleBuffer<T> early;
    /** Tuples that arrived once the early buffer was full, oldest first: held past its bound, never dropped. */
    private final ArrayDeque<T> beyond = new ArrayDeque<>();
    private final long deadlineMs;
    private SnapshotAssembler assembler;
    private long planVersion = -1;
    /** The plan version of the snapshot this gate already completed (-1: none): its resent chunks are ignored. */
    private long completedVersion = -1;
    private String openedBecause;

    /** @param deadlineMs when the gate opens without a state (wall clock of the caller) */
    public HandoffGate(HandoffLimits limits, ToLongFunction<T> sizeOf, long deadlineMs) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.early = new EarlyTupleBuffer<>(limits.earlyBufferBytes(), sizeOf);
        this.deadlineMs = deadlineMs;
    }

    public synchronized boolean isOpen() {
        return openedBecause != null;
    }

    /** Why the gate opened ({@code installed}, or why without a state); null while closed. */
    public synchronized String openedBecause() {
        return openedBecause;
    }

    public long deadlineMs() {
        return deadlineMs;
    }

    /** How many tuples are held now. */
    public synchronized int held() {
        return early.size() + beyond.size();
    }

    /**
     * Whether the early buffer is full and the gate still closed: the caller should stop taking tuples until
     * it opens (a chunk completing the snapshot, or the deadline), so its queue fills and back pressure
     * holds the senders. Tuples offered meanwhile are still held, in order.
     */
    public synchronized boolean full() {
        return !isOpen() && !beyond.isEmpty();
    }

    /** Why {@link #full()}, for the log; null when it is not. */
    public synchronized String fullBecause() {
        return full() ? "early buffer full (" + early.bytes() + " bytes in " + early.size() + " tuple(s) held, "
                        + HandoffLimits.EARLY_BUFFER_BYTES + " = " + early.maxBytes() + "; " + beyond.size()
                        + " more past it)" : null;
    }

    /** A tuple for the task: held while the gate is closed; otherwise it (after any held ones) is processed. */
    public synchronized List<T> offer(T tuple, long nowMs) {
        if (isOpen()) {
            return List.of(tuple);
        }
        if (nowMs >= deadlineMs) {
            return openWith("no snapshot by the deadline", tuple);
        }
        // Once one tuple went past the bound, later ones follow it there, so arrival order is kept.
        if (!beyond.isEmpty() || early.offer(tuple) == EarlyTupleBuffer.Admission.FULL) {
            beyond.add(tuple);
        }
        return List.of();
    }

    /** The deadline check without a tuple: the held tuples when it just opened the gate, else nothing. */
    public synchronized List<T> expire(long nowMs) {
        return !isOpen() && nowMs >= deadlineMs ? openWith("no snapshot by the deadline", null) : List.of();
    }

    /**
     * A chunk arrived. A chunk of an older move than the one being assembled is ignored; one of a newer
     * move starts over. A chunk of a snapshot this gate already completed (the source resent it because its
     * confirmation had not come yet) is ignored too, before and after the install, so a snapshot is
     * returned whole once.
     *
     * @return the whole snapshot once every chunk is in and the checksum matches; empty until then
     * @throws IllegalStateException if the gate is already open (the snapshot came too late to be used)
     * @throws IllegalArgumentException if the chunk is rejected or the whole snapshot is corrupt
     */
    public synchronized Optional<byte[]> chunk(long version, SnapshotChunk c) {
        if (version <= completedVersion) {
            return Optional.empty();
        }
        if (isOpen()) {
            throw new IllegalStateException("snapshot chunk " + c.index() + " arrived after the gate opened ("
                                            + openedBecause + ")");
        }
        if (version < planVersion) {
            return Optional.empty();
        }
        if (assembler == null || version > planVersion) {
            assembler = new SnapshotAssembler(c.count(), c.totalBytes(), c.snapshotCrc(), limits.maxBytes());
            planVersion = version;
        }
        SnapshotAssembler.Offer offer = assembler.offer(c);
        if (offer.outcome() == SnapshotAssembler.Outcome.REJECTED) {
            throw new IllegalArgumentException(offer.reason());
        }
        if (!assembler.complete()) {
            return Optional.empty();
        }
        SnapshotAssembler.Result r = assembler.finish();
        if (r instanceof SnapshotAssembler.Assembled a) {
            completedVersion = version;
            assembler = null;
            return Optional.of(a.snapshot());
        }
        throw new IllegalArgumentException("snapshot unusable: " + r);
    }

    /** Whether this gate already completed the snapshot of plan {@code version} (its chunks need no more). */
    public synchronized boolean completed(long version) {
        return completedVersion >= 0 && version <= completedVersion;
    }

    /**
     * Whether a chunk of plan {@code version} would start assembling a snapshot: the gate is closed, holds no
     * chunk of it, has not completed it, and is not assembling a newer one. A check before taking a snapshot
     * on (its size) belongs here, never in the middle of an assembly.
     */
    public synchronized boolean startsSnapshot(long version) {
        return !isOpen() && version > completedVersion && version >= planVersion
               && (assembler == null || version > planVersion);
    }

    /** The snapshot is installed: the gate opens and the held tuples are processed, in arrival order. */
    public synchronized List<T> installed() {
        return isOpen() ? List.of() : openWith("installed", null);
    }

    /** The snapshot cannot be installed (corrupt, not restorable): the gate opens without a state. */
    public synchronized List<T> abandon(String why) {
        return isOpen() ? List.of() : openWith(why, null);
    }

    private List<T> openWith(String why, T last) {
        openedBecause = why;
        assembler = null;
        List<T> out = new ArrayList<>(early.release());
        out.addAll(beyond);
        beyond.clear();
        if (last != null) {
            out.add(last);
        }
        return out;
    }
}
