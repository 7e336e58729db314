package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeptSnapshotTest {
    /** Resend after 1000 ms without a confirmation, give up 3500 ms after the first send. */
    private static final HandoffLimits LIMITS = new HandoffLimits(100, 4, 10, 1000, 2, 1000, 3500);
    private static final List<SnapshotChunk> CHUNKS = new SnapshotChunker(new byte[] {1, 2, 3, 4, 5}, 4).all();

    private final KeptSnapshot copy = new KeptSnapshot(7, CHUNKS, LIMITS, 10_000);

    @Test
    void aConfirmationOfThisMoveEndsItOnceWithTheTimeSinceTheFirstSend() {
        assertEquals(new KeptSnapshot.Confirmed(1, 250), copy.confirm(7, 10_250));
        assertFalse(copy.kept());
        assertInstanceOf(KeptSnapshot.Ignored.class, copy.confirm(7, 10_300));   // the target answered a resend again
        assertInstanceOf(KeptSnapshot.Ended.class, copy.check(20_000));         // no resend, no give-up after it
    }

    @Test
    void aConfirmationOfAnotherPlanVersionChangesNothing() {
        KeptSnapshot.Ignored other = assertInstanceOf(KeptSnapshot.Ignored.class, copy.confirm(6, 10_100));
        assertTrue(other.why().contains("v6"), other.why());
        assertTrue(copy.kept());
        assertEquals(new KeptSnapshot.Confirmed(1, 200), copy.confirm(7, 10_200));
    }

    @Test
    void anOverdueConfirmationSendsTheWholeCopyAgainAsANewAttemptThenCountsFromThere() {
        assertEquals(new KeptSnapshot.Wait(400), copy.check(10_600));
        assertEquals(new KeptSnapshot.Resend(2), copy.check(11_000));
        assertEquals(2, copy.attempt());
        assertEquals(new KeptSnapshot.Wait(1000), copy.check(11_000));
        assertEquals(new KeptSnapshot.Resend(3), copy.check(12_100));
        assertEquals(CHUNKS, copy.chunks());
        assertEquals(5, copy.bytes());
        // The relaunched target installed attempt 3; the time counts from the first send.
        assertEquals(new KeptSnapshot.Confirmed(3, 2300), copy.confirm(7, 12_300));
    }

    @Test
    void pastTheConfirmationTimeoutTheCopyIsGivenUpWithTheReasonAndNotSentAgain() {
        assertEquals(new KeptSnapshot.Resend(2), copy.check(11_000));
        assertEquals(new KeptSnapshot.Resend(3), copy.check(12_000));
        assertEquals(new KeptSnapshot.Resend(4), copy.check(13_000));
        assertEquals(new KeptSnapshot.Wait(500), copy.check(13_000));   // the timeout comes before the next resend
        KeptSnapshot.GiveUp g = assertInstanceOf(KeptSnapshot.GiveUp.class, copy.check(13_500));
        assertTrue(g.reason().contains(HandoffLimits.CONFIRM_TIMEOUT_MS + " = 3500"), g.reason());
        assertTrue(g.reason().contains("4 attempt(s)"), g.reason());
        assertFalse(copy.kept());
        assertInstanceOf(KeptSnapshot.Ended.class, copy.check(14_000));
        assertInstanceOf(KeptSnapshot.Ignored.class, copy.confirm(7, 14_000));   // a late confirmation: too late
    }

    @Test
    void aRefusalOfThisMoveReleasesTheCopyOnceAndNothingIsSentAgain() {
        assertEquals(new KeptSnapshot.Resend(2), copy.check(11_000));
        assertEquals(new KeptSnapshot.Declined(2), copy.declined(7, "no room"));
        assertFalse(copy.kept());
        KeptSnapshot.Ended ended = assertInstanceOf(KeptSnapshot.Ended.class, copy.check(13_000));
        assertTrue(ended.how().contains("no room"), ended.how());
        assertInstanceOf(KeptSnapshot.Ignored.class, copy.declined(7, "no room"));   // answered again at a resend
        assertInstanceOf(KeptSnapshot.Ignored.class, copy.confirm(7, 13_000));
    }

    @Test
    void aRefusalOfAnotherPlanVersionOrAfterTheCopyEndedChangesNothing() {
        KeptSnapshot.Ignored other = assertInstanceOf(KeptSnapshot.Ignored.class, copy.declined(6, "no room"));
        assertTrue(other.why().contains("v6"), other.why());
        assertTrue(copy.kept());
        assertEquals(new KeptSnapshot.Confirmed(1, 100), copy.confirm(7, 10_100));
        assertInstanceOf(KeptSnapshot.Ignored.class, copy.declined(7, "no room"));
    }

    @Test
    void aDroppedCopyIsNeitherSentAgainNorConfirmed() {
        assertTrue(copy.drop("the task runs here again"));
        assertFalse(copy.drop("again"));
        assertEquals(new KeptSnapshot.Ended("the task runs here again"), copy.check(12_000));
        assertInstanceOf(KeptSnapshot.Ignored.class, copy.confirm(7, 12_000));
    }

    @Test
    void limitsRefuseAResendIntervalOverTheTimeoutAndAnEmptyCopy() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new HandoffLimits(100, 4, 10, 1000, 2, 5000, 1000));
        assertTrue(e.getMessage().contains(HandoffLimits.CONFIRM_TIMEOUT_MS), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HandoffLimits(100, 4, 10, 1000, 2, 0, 1000));
        assertThrows(IllegalArgumentException.class, () -> new KeptSnapshot(1, List.of(), LIMITS, 0));
        assertEquals(120_000, HandoffLimits.fromConf(java.util.Map.of()).confirmTimeoutMs());
        assertEquals(700, HandoffLimits.fromConf(java.util.Map.of(HandoffLimits.CONFIRM_RESEND_MS, 700))
            .confirmResendMs());
    }
}
