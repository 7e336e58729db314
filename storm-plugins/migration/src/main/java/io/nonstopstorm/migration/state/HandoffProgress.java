package io.nonstopstorm.migration.state;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Objects;

/**
 * One executor's handoff at one moment; immutable, changed only by {@link Handoff}.
 *
 * @param planVersion   the plan version of the move: with the executor, the handoff id on the wire
 * @param requestedAtMs when the handoff was requested
 * @param phaseSinceMs  when the current phase began
 * @param barrierAtMs   when the barrier was queued (the transfer timeout counts from it), or -1 before
 * @param snapshotBytes the snapshot's size, or -1 before it was taken
 * @param chunks        how many chunks the snapshot takes, or 0 before it was taken
 * @param chunksAcked   every chunk below this one is acknowledged by the target
 * @param resends       how many times missing chunks were sent again
 * @param reason        why a failure exit happened, or null
 */
public record HandoffProgress(ExecutorId executor, long planVersion, HandoffPhase phase, long requestedAtMs,
                              long phaseSinceMs, long barrierAtMs, long snapshotBytes, int chunks,
                              int chunksAcked, int resends, String reason) {

    public HandoffProgress {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(phase, "phase");
    }

    HandoffProgress to(HandoffPhase next, long nowMs, String why) {
        return new HandoffProgress(executor, planVersion, next, requestedAtMs, nowMs, barrierAtMs, snapshotBytes,
                                   chunks, chunksAcked, resends, why == null ? reason : why);
    }

    HandoffProgress barrier(long nowMs) {
        return new HandoffProgress(executor, planVersion, HandoffPhase.DRAINING_OLD, requestedAtMs, nowMs, nowMs,
                                   snapshotBytes, chunks, chunksAcked, resends, reason);
    }

    HandoffProgress snapshot(HandoffPhase next, long nowMs, long bytes, int chunkCount, String why) {
        return new HandoffProgress(executor, planVersion, next, requestedAtMs, nowMs, barrierAtMs, bytes, chunkCount,
                                   chunksAcked, resends, why);
    }

    /** Same phase (and phase start): only the acknowledgement or resend count changed. */
    HandoffProgress counted(int acked, int resent) {
        return new HandoffProgress(executor, planVersion, phase, requestedAtMs, phaseSinceMs, barrierAtMs,
                                   snapshotBytes, chunks, acked, resent, reason);
    }

    /** Whether the old instance's copy is the state. */
    public boolean oldInstanceOwnsState() {
        return phase.oldInstanceOwnsState();
    }
}
