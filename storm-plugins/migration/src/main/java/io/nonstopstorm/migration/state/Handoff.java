package io.nonstopstorm.migration.state;

import io.nonstopstorm.migration.state.HandoffEvent.BarrierQueued;
import io.nonstopstorm.migration.state.HandoffEvent.ChunksAcked;
import io.nonstopstorm.migration.state.HandoffEvent.ChunksMissing;
import io.nonstopstorm.migration.state.HandoffEvent.DeadlineCheck;
import io.nonstopstorm.migration.state.HandoffEvent.DestinationLost;
import io.nonstopstorm.migration.state.HandoffEvent.Installed;
import io.nonstopstorm.migration.state.HandoffEvent.Released;
import io.nonstopstorm.migration.state.HandoffEvent.SendingStarted;
import io.nonstopstorm.migration.state.HandoffEvent.SnapshotTaken;
import io.nonstopstorm.migration.state.HandoffEvent.Superseded;
import io.nonstopstorm.wire.ExecutorId;
import java.util.Collections;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The rules of one executor's state handoff (docs/state-handoff.md), as a step function over
 * {@link HandoffProgress}: no Storm types, no effects, the clock injected. The runtime applies the effect
 * of a transition (queue the barrier, send chunks, resume or release the old instance) only when the step
 * was accepted, so an event in the wrong phase changes nothing. The invariant it keeps: until the target
 * confirms the install, the old instance's copy is the state, and every failure exit resumes it.
 */
public final class Handoff {
    private final HandoffLimits limits;
    private final LongSupplier clockMs;

    public Handoff(HandoffLimits limits, LongSupplier clockMs) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
    }

    public HandoffLimits limits() {
        return limits;
    }

    /** A handoff for a move the reconcile just decided. */
    public HandoffProgress request(ExecutorId executor, long planVersion) {
        long now = clockMs.getAsLong();
        return new HandoffProgress(executor, planVersion, HandoffPhase.REQUESTED, now, now, -1, -1, 0, 0, 0, null);
    }

    /** When the handoff is aborted unless installed (the transfer timeout after the barrier), or -1 before it. */
    public long deadlineAtMs(HandoffProgress p) {
        return p.barrierAtMs() < 0 ? -1 : p.barrierAtMs() + limits.transferTimeoutMs();
    }

    public HandoffStep step(HandoffProgress p, HandoffEvent e) {
        Objects.requireNonNull(e, "event");
        HandoffPhase phase = p.phase();
        if (phase.terminal()) {
            return illegal(p, e, "the handoff already ended (" + phase.wireName() + ")");
        }
        // A wall clock may step back; a phase never ends before it began.
        long now = Math.max(clockMs.getAsLong(), p.phaseSinceMs());
        if (e instanceof Superseded) {
            return p.oldInstanceOwnsState() ? to(p, e, HandoffPhase.ABORTED_KEEP_OLD, now, "a newer plan changed it")
                : illegal(p, e, "the target owns the state since the install; a newer plan moves it from there");
        }
        if (e instanceof DestinationLost lost) {
            return p.oldInstanceOwnsState()
                ? to(p, e, HandoffPhase.ABORTED_KEEP_OLD, now, "destination lost: " + lost.why())
                : illegal(p, e, "the target owns the state since the install; its loss is a worker crash");
        }
        if (e instanceof BarrierQueued) {
            return phase == HandoffPhase.REQUESTED ? new HandoffStep(p, e, p.barrier(now), null) : wrong(p, e);
        }
        if (e instanceof SnapshotTaken taken) {
            if (phase != HandoffPhase.DRAINING_OLD) {
                return wrong(p, e);
            }
            int chunks = limits.chunkCount(taken.bytes());
            if (taken.bytes() > limits.maxBytes()) {
                return new HandoffStep(p, e, p.snapshot(HandoffPhase.REFUSED_TOO_LARGE, now, taken.bytes(), chunks,
                    "state of " + p.executor() + " is " + taken.bytes() + " bytes, over " + HandoffLimits.MAX_BYTES
                    + " = " + limits.maxBytes()), null);
            }
            return new HandoffStep(p, e, p.snapshot(HandoffPhase.SNAPSHOT_TAKEN, now, taken.bytes(), chunks, null),
                                   null);
        }
        if (e instanceof SendingStarted) {
            return phase == HandoffPhase.SNAPSHOT_TAKEN ? to(p, e, HandoffPhase.TRANSFERRING, now, null) : wrong(p, e);
        }
        if (e instanceof ChunksAcked acked) {
            return acked(p, acked);
        }
        if (e instanceof ChunksMissing missing) {
            return missing(p, missing, now);
        }
        if (e instanceof Installed installed) {
            return installed(p, installed, now);
        }
        if (e instanceof Released) {
            return phase == HandoffPhase.INSTALLED ? to(p, e, HandoffPhase.RELEASED, now, null) : wrong(p, e);
        }
        if (e instanceof DeadlineCheck) {
            if (p.barrierAtMs() < 0) {
                return wrong(p, e);
            }
            if (!p.oldInstanceOwnsState()) {
                // The target confirmed the install: the old copy is stale, so no deadline may resume it (F4).
                return illegal(p, e, "the target owns the state since the install; the transfer timeout no longer "
                                     + "applies");
            }
            long deadline = deadlineAtMs(p);
            if (now < deadline) {
                return illegal(p, e, "the transfer timeout has " + (deadline - now) + " ms to go");
            }
            return to(p, e, HandoffPhase.ABORTED_KEEP_OLD, now,
                      "not installed " + (now - p.barrierAtMs()) + " ms after the barrier ("
                      + HandoffLimits.TRANSFER_TIMEOUT_MS + " = " + limits.transferTimeoutMs() + ")");
        }
        throw new AssertionError(e);
    }

    private HandoffStep acked(HandoffProgress p, ChunksAcked e) {
        if (p.phase() == HandoffPhase.AWAITING_INSTALL && e.below() == p.chunks()) {
            return new HandoffStep(p, e, p, null);   // a repeated final acknowledgement
        }
        if (p.phase() != HandoffPhase.TRANSFERRING) {
            return wrong(p, e);
        }
        if (e.below() < 0 || e.below() > p.chunks()) {
            return illegal(p, e, "acknowledgement of chunks below " + e.below() + " outside 0.." + p.chunks());
        }
        // Cumulative: an acknowledgement overtaken by a later one changes nothing.
        if (e.below() <= p.chunksAcked()) {
            return new HandoffStep(p, e, p, null);
        }
        HandoffProgress counted = p.counted(e.below(), p.resends());
        return new HandoffStep(p, e, e.below() == p.chunks()
            ? counted.to(HandoffPhase.AWAITING_INSTALL, Math.max(clockMs.getAsLong(), p.phaseSinceMs()), null)
            : counted, null);
    }

    /**
     * HANDOFF_INSTALLED: only for this move (its plan version), only with every chunk acknowledged, and only
     * once; a repeat (the target confirms again when a resend reaches it after the install) changes nothing.
     */
    private HandoffStep installed(HandoffProgress p, Installed e, long now) {
        if (e.planVersion() != p.planVersion()) {
            return illegal(p, e, "install confirmed for plan v" + e.planVersion() + ", this handoff is v"
                                 + p.planVersion());
        }
        if (p.phase() == HandoffPhase.INSTALLED) {
            return illegal(p, e, "install already confirmed");
        }
        if (p.phase() == HandoffPhase.TRANSFERRING) {
            return illegal(p, e, "install confirmed with " + p.chunksAcked() + " of " + p.chunks()
                                 + " chunks acknowledged");
        }
        return p.phase() == HandoffPhase.AWAITING_INSTALL ? to(p, e, HandoffPhase.INSTALLED, now, null) : wrong(p, e);
    }

    private HandoffStep missing(HandoffProgress p, ChunksMissing e, long now) {
        if (p.phase() != HandoffPhase.TRANSFERRING) {
            return wrong(p, e);
        }
        if (e.indices().isEmpty()) {
            return illegal(p, e, "a missing-chunks report names no chunk");
        }
        int lowest = Collections.min(e.indices());
        int highest = Collections.max(e.indices());
        if (lowest < p.chunksAcked() || highest >= p.chunks()) {
            return illegal(p, e, "missing chunks " + e.indices() + " contradict the acknowledgements (chunks below "
                                 + p.chunksAcked() + " of " + p.chunks() + ")");
        }
        if (p.resends() >= limits.maxResends()) {
            return to(p, e, HandoffPhase.ABORTED_KEEP_OLD, now, "chunks " + e.indices() + " still missing after "
                      + p.resends() + " resends (" + HandoffLimits.RESEND_MAX + " = " + limits.maxResends() + ")");
        }
        return new HandoffStep(p, e, p.counted(p.chunksAcked(), p.resends() + 1), null);
    }

    private static HandoffStep to(HandoffProgress p, HandoffEvent e, HandoffPhase next, long now, String why) {
        return new HandoffStep(p, e, p.to(next, now, why), null);
    }

    private static HandoffStep wrong(HandoffProgress p, HandoffEvent e) {
        return illegal(p, e, e.getClass().getSimpleName() + " is not allowed in phase " + p.phase().wireName());
    }

    private static HandoffStep illegal(HandoffProgress p, HandoffEvent e, String why) {
        return new HandoffStep(p, e, p, "handoff of " + p.executor() + ": " + why);
    }
}
