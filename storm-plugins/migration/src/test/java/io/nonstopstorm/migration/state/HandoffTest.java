package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandoffTest {
    private static final ExecutorId EX = new ExecutorId(5, 5);
    private static final int CHUNK = 100;
    private static final long TIMEOUT = 10_000;
    /** 1000 bytes at most, chunks of 100, buffer 1000, 10 s timeout, 1 resend. */
    private static final HandoffLimits LIMITS = new HandoffLimits(1000, CHUNK, 1000, TIMEOUT, 1);

    /** Simulated time: every test moves it by hand. */
    private long now = 5_000_000;
    private final Handoff handoff = new Handoff(LIMITS, () -> now);

    private HandoffProgress accept(HandoffProgress p, HandoffEvent e) {
        HandoffStep step = handoff.step(p, e);
        assertTrue(step.applied(), () -> "refused: " + step.illegal());
        return step.after();
    }

    private String refused(HandoffProgress p, HandoffEvent e) {
        HandoffStep step = handoff.step(p, e);
        assertFalse(step.applied(), () -> e + " accepted in " + p.phase());
        assertSame(p, step.after(), "a refused event changes nothing");
        assertTrue(step.illegal().contains(EX.toString()), step.illegal());
        return step.illegal();
    }

    /** A handoff of a 250-byte snapshot (3 chunks) that is transferring, nothing acknowledged yet. */
    private HandoffProgress transferring() {
        HandoffProgress p = handoff.request(EX, 9);
        p = accept(p, new BarrierQueued());
        p = accept(p, new SnapshotTaken(250));
        return accept(p, new SendingStarted());
    }

    @Test
    void theHappyPathGoesFromRequestedToReleasedAndHandsOwnershipOverAtTheInstall() {
        HandoffProgress p = handoff.request(EX, 9);
        assertEquals(HandoffPhase.REQUESTED, p.phase());
        assertEquals(-1, handoff.deadlineAtMs(p));
        now += 10;
        HandoffStep barrier = handoff.step(p, new BarrierQueued());
        assertTrue(barrier.entered(HandoffPhase.DRAINING_OLD));
        p = barrier.after();
        assertEquals(now, p.barrierAtMs());
        assertEquals(now + TIMEOUT, handoff.deadlineAtMs(p));
        now += 5;
        p = accept(p, new SnapshotTaken(250));
        assertEquals(HandoffPhase.SNAPSHOT_TAKEN, p.phase());
        assertEquals(250, p.snapshotBytes());
        assertEquals(3, p.chunks());
        p = accept(p, new SendingStarted());
        assertEquals(HandoffPhase.TRANSFERRING, p.phase());
        p = accept(p, new ChunksAcked(2));
        assertEquals(2, p.chunksAcked());
        p = accept(p, new ChunksAcked(3));
        for (HandoffPhase before : List.of(HandoffPhase.REQUESTED, HandoffPhase.DRAINING_OLD,
                                           HandoffPhase.SNAPSHOT_TAKEN, HandoffPhase.TRANSFERRING)) {
            assertTrue(before.oldInstanceOwnsState(), before::toString);
            assertFalse(before.targetMayProcess(), before::toString);
        }
        now += 20;
        p = accept(p, new Installed(9));
        assertEquals(HandoffPhase.INSTALLED, p.phase());
        assertFalse(p.oldInstanceOwnsState());
        assertTrue(p.phase().targetMayProcess());
        p = accept(p, new Released());
        assertEquals(HandoffPhase.RELEASED, p.phase());
        assertTrue(p.phase().terminal());
        assertEquals(now, p.phaseSinceMs());
        assertEquals(9, p.planVersion());
        assertNull(p.reason());
        assertTrue(refused(p, new Superseded()).contains("already ended (released)"));
    }

    @Test
    void eventsOutOfOrderAreRefusedAndChangeNothing() {
        HandoffProgress p = handoff.request(EX, 1);
        refused(p, new SnapshotTaken(10));
        refused(p, new SendingStarted());
        refused(p, new ChunksAcked(0));
        refused(p, new Installed(1));
        refused(p, new Released());
        refused(p, new DeadlineCheck());
        p = accept(p, new BarrierQueued());
        refused(p, new BarrierQueued());
        refused(p, new Installed(1));
        p = accept(p, new SnapshotTaken(10));
        refused(p, new ChunksAcked(1));
        refused(p, new Released());
    }

    @Test
    void theInstallNeedsEveryChunkAcknowledged() {
        HandoffProgress p = transferring();
        p = accept(p, new ChunksAcked(2));
        assertTrue(refused(p, new Installed(9)).contains("2 of 3 chunks"));
        p = accept(p, new ChunksAcked(3));
        accept(p, new Installed(9));
    }

    @Test
    void aStaleAcknowledgementChangesNothingAndOneBeyondTheSnapshotIsRefused() {
        HandoffProgress p = accept(transferring(), new ChunksAcked(2));
        HandoffStep stale = handoff.step(p, new ChunksAcked(1));
        assertTrue(stale.applied());
        assertSame(p, stale.after());
        refused(p, new ChunksAcked(4));
        refused(p, new ChunksAcked(-1));
    }

    @Test
    void theDestinationLostMidTransferAbortsAndTheOldInstanceKeepsTheState() {
        HandoffProgress p = accept(transferring(), new ChunksAcked(1));
        now += 100;
        HandoffStep lost = handoff.step(p, new DestinationLost("connection to host2:6701 closed"));
        assertTrue(lost.entered(HandoffPhase.ABORTED_KEEP_OLD));
        p = lost.after();
        assertTrue(p.oldInstanceOwnsState(), "the old instance resumes with its state");
        assertFalse(p.phase().targetMayProcess());
        assertEquals("destination lost: connection to host2:6701 closed", p.reason());
        refused(p, new Installed(9));
    }

    @Test
    void theDestinationLostInEveryPhaseBeforeTheInstallAborts() {
        HandoffProgress p = handoff.request(EX, 1);
        for (HandoffEvent next : List.of(new BarrierQueued(), new SnapshotTaken(1), new SendingStarted())) {
            assertEquals(HandoffPhase.ABORTED_KEEP_OLD, accept(p, new DestinationLost("gone")).phase(),
                         p.phase()::toString);
            p = accept(p, next);
        }
        assertEquals(HandoffPhase.ABORTED_KEEP_OLD, accept(p, new DestinationLost("gone")).phase());
    }

    @Test
    void afterTheInstallTheTargetOwnsTheStateSoItsLossOrANewerPlanDoesNotResumeTheOldInstance() {
        HandoffProgress p = accept(accept(transferring(), new ChunksAcked(3)), new Installed(9));
        assertTrue(refused(p, new DestinationLost("gone")).contains("target owns the state"));
        assertTrue(refused(p, new Superseded()).contains("target owns the state"));
        assertEquals(HandoffPhase.RELEASED, accept(p, new Released()).phase());
    }

    @Test
    void aSnapshotOverTheLimitIsRefusedBeforeAnythingIsSent() {
        HandoffProgress p = accept(handoff.request(EX, 1), new BarrierQueued());
        HandoffStep big = handoff.step(p, new SnapshotTaken(1001));
        assertTrue(big.entered(HandoffPhase.REFUSED_TOO_LARGE));
        p = big.after();
        assertTrue(p.phase().terminal());
        assertTrue(p.oldInstanceOwnsState());
        assertEquals(1001, p.snapshotBytes());
        assertEquals("state of [5,5] is 1001 bytes, over nonstop.migration.state.max.bytes = 1000", p.reason());
        refused(p, new SendingStarted());
        // Exactly at the limit is allowed.
        HandoffProgress atLimit = accept(accept(handoff.request(EX, 2), new BarrierQueued()), new SnapshotTaken(1000));
        assertEquals(HandoffPhase.SNAPSHOT_TAKEN, atLimit.phase());
        assertEquals(10, atLimit.chunks());
    }

    @Test
    void anEmptySnapshotIsOneChunk() {
        HandoffProgress p = accept(accept(handoff.request(EX, 1), new BarrierQueued()), new SnapshotTaken(0));
        assertEquals(1, p.chunks());
    }

    @Test
    void missingChunksAreResentUpToTheLimitThenTheHandoffAborts() {
        HandoffProgress p = accept(transferring(), new ChunksAcked(1));
        p = accept(p, new ChunksMissing(List.of(1, 2)));
        assertEquals(HandoffPhase.TRANSFERRING, p.phase());
        assertEquals(1, p.resends());
        assertEquals(1, p.chunksAcked());
        HandoffStep again = handoff.step(p, new ChunksMissing(List.of(2)));
        assertTrue(again.entered(HandoffPhase.ABORTED_KEEP_OLD));
        assertTrue(again.after().reason().contains("chunks [2] still missing after 1 resends"),
                   again.after().reason());
        assertTrue(again.after().oldInstanceOwnsState());
    }

    @Test
    void aMissingReportThatContradictsTheAcknowledgementsIsRefused() {
        HandoffProgress p = accept(transferring(), new ChunksAcked(2));
        refused(p, new ChunksMissing(List.of(1)));
        refused(p, new ChunksMissing(List.of(3)));
        refused(p, new ChunksMissing(List.of()));
    }

    @Test
    void theTransferTimeoutCountsFromTheBarrierOnTheInjectedClock() {
        HandoffProgress p = transferring();
        long barrier = p.barrierAtMs();
        now = barrier + TIMEOUT - 1;
        assertTrue(refused(p, new DeadlineCheck()).contains("1 ms to go"));
        now = barrier + TIMEOUT;
        HandoffStep late = handoff.step(p, new DeadlineCheck());
        assertTrue(late.entered(HandoffPhase.ABORTED_KEEP_OLD));
        assertTrue(late.after().reason().startsWith("not installed 10000 ms after the barrier"),
                   late.after().reason());
    }

    @Test
    void aClockSteppingBackNeverEndsAPhaseBeforeItBegan() {
        HandoffProgress p = transferring();
        now -= 60_000;
        p = accept(p, new ChunksAcked(3));
        p = accept(p, new Installed(9));
        assertTrue(p.phaseSinceMs() >= p.barrierAtMs());
    }

    @Test
    void everyChunkAcknowledgedWaitsForTheInstallWithTheOldCopyKept() {
        HandoffProgress p = accept(transferring(), new ChunksAcked(2));
        assertEquals(HandoffPhase.TRANSFERRING, p.phase());
        now += 7;
        HandoffStep last = handoff.step(p, new ChunksAcked(3));
        assertTrue(last.entered(HandoffPhase.AWAITING_INSTALL));
        p = last.after();
        assertEquals(now, p.phaseSinceMs());
        assertTrue(p.oldInstanceOwnsState(), "the old copy is the state until the target confirms");
        assertFalse(p.phase().targetMayProcess());
        // The final acknowledgement repeated (a resend crossed it) changes nothing.
        HandoffStep again = handoff.step(p, new ChunksAcked(3));
        assertTrue(again.applied());
        assertSame(p, again.after());
        refused(p, new ChunksAcked(2));
        refused(p, new ChunksMissing(List.of(0)));
        p = accept(p, new Installed(9));
        assertEquals(HandoffPhase.INSTALLED, p.phase());
        assertFalse(p.oldInstanceOwnsState());
    }

    @Test
    void aDuplicateOrForeignInstallConfirmationChangesNothing() {
        HandoffProgress waiting = accept(transferring(), new ChunksAcked(3));
        assertTrue(refused(waiting, new Installed(8)).contains("plan v8, this handoff is v9"));
        assertTrue(refused(waiting, new Installed(10)).contains("plan v10"));
        HandoffProgress installed = accept(waiting, new Installed(9));
        assertTrue(refused(installed, new Installed(9)).contains("already confirmed"));
        HandoffProgress released = accept(installed, new Released());
        assertTrue(refused(released, new Installed(9)).contains("already ended"));
    }

    @Test
    void noConfirmationByTheTransferTimeoutResumesTheOldInstance() {
        HandoffProgress p = accept(transferring(), new ChunksAcked(3));
        now = p.barrierAtMs() + TIMEOUT - 1;
        refused(p, new DeadlineCheck());
        now = p.barrierAtMs() + TIMEOUT;
        HandoffStep late = handoff.step(p, new DeadlineCheck());
        assertTrue(late.entered(HandoffPhase.ABORTED_KEEP_OLD));
        assertTrue(late.after().oldInstanceOwnsState());
        // A confirmation that arrives after the abort is refused: the old instance resumed, the target's copy
        // must be dropped (the runtime tells it so).
        assertTrue(refused(late.after(), new Installed(9)).contains("already ended (aborted_keep_old)"));
    }

    @Test
    void theDestinationLostWhileRestoringAbortsWithTheOldCopy() {
        HandoffProgress p = accept(transferring(), new ChunksAcked(3));
        HandoffStep lost = handoff.step(p, new DestinationLost("worker host2:6701 gone"));
        assertTrue(lost.entered(HandoffPhase.ABORTED_KEEP_OLD));
        assertEquals("destination lost: worker host2:6701 gone", lost.after().reason());
    }

    @Test
    void afterTheInstallTheTransferTimeoutNoLongerApplies() {
        HandoffProgress p = accept(accept(transferring(), new ChunksAcked(3)), new Installed(9));
        now = p.barrierAtMs() + 10 * TIMEOUT;
        assertTrue(refused(p, new DeadlineCheck()).contains("no longer applies"));
    }

    @Test
    void aNewerPlanBeforeTheInstallAbortsAndKeepsTheOldState() {
        HandoffProgress p = accept(handoff.request(EX, 1), new BarrierQueued());
        p = accept(p, new Superseded());
        assertEquals(HandoffPhase.ABORTED_KEEP_OLD, p.phase());
        assertEquals("a newer plan changed it", p.reason());
    }

    @Test
    void onlyTheFailureExitsAndReleasedAreTerminal() {
        assertEquals(EnumSet.of(HandoffPhase.RELEASED, HandoffPhase.ABORTED_KEEP_OLD, HandoffPhase.REFUSED_TOO_LARGE),
                     EnumSet.copyOf(List.of(HandoffPhase.values()).stream().filter(HandoffPhase::terminal).toList()));
        assertEquals("aborted_keep_old", HandoffPhase.ABORTED_KEEP_OLD.wireName());
    }

    @Test
    void limitsAreCheckedWithTheKeyInTheMessage() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HandoffLimits(-1, 10, 10, 1, 0))
                       .getMessage().contains(HandoffLimits.MAX_BYTES));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HandoffLimits(10, 0, 10, 1, 0))
                       .getMessage().contains(HandoffLimits.CHUNK_BYTES));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HandoffLimits(10, 10, 9, 1, 0))
                       .getMessage().contains(HandoffLimits.EARLY_BUFFER_BYTES));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HandoffLimits(10, 10, 10, 0, 0))
                       .getMessage().contains(HandoffLimits.TRANSFER_TIMEOUT_MS));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HandoffLimits(10, 10, 10, 1, -1))
                       .getMessage().contains(HandoffLimits.RESEND_MAX));
        assertEquals(256, HandoffLimits.DEFAULTS.chunkCount(64L << 20));
    }
}
