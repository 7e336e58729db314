package io.nonstopstorm.migration.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * The target's side of one task's handoff: the new instance's gate. While it is closed, tuples for the
 * task are held in arrival order ({@link EarlyTupleBuffer}) and snapshot chunks are reassembled
 * ({@link SnapshotAssembler}); the gate opens when the snapshot is installed, or without a state when
 * the deadline passes (the source is gone or gave up: today's behaviour, a new instance starting empty)
 * or the early buffer is full. Every method returns the tuples to process now, oldest first. Not
 * thread-safe: only the executor's own thread calls it.
 *
 * @param <T> the runtime's tuple type
 */
public final class HandoffGate<T> {
    private final HandoffLimits limits;
    private final EarlyTupleBuffer<T> early;
    private final long deadlineMs;
    private SnapshotAssembler assembler;
    private long planVersion = -1;
    private String openedBecause;

    /** @param deadlineMs when the gate opens without a state (wall clock of the caller) */
    public HandoffGate(HandoffLimits limits, ToLongFunction<T> sizeOf, long deadlineMs) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.early = new EarlyTupleBuffer<>(limits.earlyBufferBytes(), sizeOf);
        this.deadlineMs = deadlineMs;
    }

    public boolean isOpen() {
        return openedBecause != null;
    }

    /** Why the gate opened ({@code installed}, or why without a state); null while closed. */
    public String openedBecause() {
        return openedBecause;
    }

    public long deadlineMs() {
        return deadlineMs;
    }

    /** How many tuples are held now. */
    public int held() {
        return early.size();
    }

    /** A tuple for the task: held while the gate is closed; otherwise it (after any held ones) is processed. */
    public List<T> offer(T tuple, long nowMs) {
        if (isOpen()) {
            return List.of(tuple);
        }
        if (nowMs >= deadlineMs) {
            return openWith("no snapshot by the deadline", tuple);
        }
        if (early.offer(tuple) == EarlyTupleBuffer.Admission.FULL) {
            return openWith("early buffer full (" + early.bytes() + " bytes held, "
                            + HandoffLimits.EARLY_BUFFER_BYTES + " = " + early.maxBytes() + ")", tuple);
        }
        return List.of();
    }

    /** The deadline check without a tuple: the held tuples when it just opened the gate, else nothing. */
    public List<T> expire(long nowMs) {
        return !isOpen() && nowMs >= deadlineMs ? openWith("no snapshot by the deadline", null) : List.of();
    }

    /**
     * A chunk arrived. A chunk of an older move than the one being assembled is ignored; one of a newer
     * move starts over.
     *
     * @return the whole snapshot once every chunk is in and the checksum matches; empty until then
     * @throws IllegalStateException if the gate is already open (the snapshot came too late to be used)
     * @throws IllegalArgumentException if the chunk is rejected or the whole snapshot is corrupt
     */
    public Optional<byte[]> chunk(long version, SnapshotChunk c) {
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
            return Optional.of(a.snapshot());
        }
        throw new IllegalArgumentException("snapshot unusable: " + r);
    }

    /** The snapshot is installed: the gate opens and the held tuples are processed, in arrival order. */
    public List<T> installed() {
        return isOpen() ? List.of() : openWith("installed", null);
    }

    /** The snapshot cannot be installed (corrupt, not restorable): the gate opens without a state. */
    public List<T> abandon(String why) {
        return isOpen() ? List.of() : openWith(why, null);
    }

    private List<T> openWith(String why, T last) {
        openedBecause = why;
        assembler = null;
        List<T> out = new ArrayList<>(early.release());
        if (last != null) {
            out.add(last);
        }
        return out;
    }
}
