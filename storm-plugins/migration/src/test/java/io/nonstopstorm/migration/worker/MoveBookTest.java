package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ExecutorId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MoveBookTest {
    private static final ExecutorId A = new ExecutorId(1, 1);
    private static final ExecutorId B = new ExecutorId(2, 3);

    private final MoveBook<String> book = new MoveBook<>(new MoveMachine(1_000, 500));
    private long now = 10_000;

    private MovePhase phase(ExecutorId r) {
        return book.get(r).orElseThrow().state().phase();
    }

    @Test
    void aRefreshTakesEveryPlacedInstanceIntoTheConnectionWaitOnce() {
        book.plan(A, MoveRole.SOURCE, 1, 9_000, now);
        book.attach(A, "old A");
        book.step(A, MoveEvent.DETACHED, now, null);
        book.plan(B, MoveRole.TARGET, 1, 9_000, now);
        assertEquals(List.of(A), book.refreshed(now).stream().map(m -> m.state().executor()).toList(),
                     "B is not started yet");
        book.step(B, MoveEvent.INSTANCE_STARTED, now, null);
        assertEquals(List.of(B), book.refreshed(now).stream().map(m -> m.state().executor()).toList(),
                     "A was taken by the earlier refresh");
        assertEquals(MovePhase.CONNECTING, phase(A));
        assertEquals(List.of("old A"), book.liveInstances());
    }

    @Test
    void aTerminalPhaseTakesTheMoveOutOfTheBook() {
        book.plan(A, MoveRole.TARGET, 1, 9_000, now);
        MoveStep s = book.step(A, MoveEvent.INSTANCE_FAILED, now, "boom").orElseThrow();
        assertTrue(s.entered(MovePhase.START_FAILED));
        assertTrue(book.get(A).isEmpty());
        assertEquals(Optional.empty(), book.step(A, MoveEvent.REFRESHED, now, null));
    }

    @Test
    void aNewPlanForADrainingExecutorSupersedesItAndHandsBackItsLiveInstance() {
        book.plan(A, MoveRole.SOURCE, 1, 9_000, now);
        book.attach(A, "old A");
        book.step(A, MoveEvent.DETACHED, now, null);
        book.refreshed(now);
        book.step(A, MoveEvent.CONNECTIONS_READY, now, null);
        book.step(A, MoveEvent.ROUTING_SWITCHED, now, null);
        long drainingId = book.get(A).orElseThrow().id();
        now += 100;
        MoveBook.Ended<String> old = book.plan(A, MoveRole.TARGET, 2, 9_000, now).orElseThrow();
        assertEquals(MovePhase.SUPERSEDED, old.move().state().phase());
        assertEquals(MovePhase.DRAINING, old.before().phase());
        assertTrue(old.before().instanceLive());
        assertEquals("old A", old.move().handle());
        assertEquals(MovePhase.PLANNED, phase(A));
        assertEquals(MoveRole.TARGET, book.get(A).orElseThrow().state().role());
        assertTrue(book.liveInstances().isEmpty(), "the old instance is the caller's to stop now");
        // The lazy kill timer of the superseded move fires later and finds nothing of its own.
        now += 1_000;
        assertEquals(Optional.empty(), book.step(A, drainingId, MoveEvent.DRAIN_ELAPSED, now, null));
        assertEquals(MovePhase.PLANNED, phase(A));
    }

    @Test
    void theLazyKillOfTheCurrentMoveRetiresIt() {
        book.plan(B, MoveRole.SOURCE, 1, 9_000, now);
        book.attach(B, "old B");
        book.step(B, MoveEvent.DETACHED, now, null);
        book.refreshed(now);
        book.step(B, MoveEvent.CONNECTIONS_READY, now, null);
        book.step(B, MoveEvent.ROUTING_SWITCHED, now, null);
        long id = book.get(B).orElseThrow().id();
        MoveStep early = book.step(B, id, MoveEvent.DRAIN_ELAPSED, now + 499, null).orElseThrow();
        assertFalse(early.applied());
        assertEquals(MovePhase.DRAINING, phase(B));
        MoveStep kill = book.step(B, id, MoveEvent.DRAIN_ELAPSED, now + 500, null).orElseThrow();
        assertTrue(kill.entered(MovePhase.RETIRED));
        assertEquals(0, book.size());
    }

    @Test
    void shutdownEndsEveryMoveAndTellsWhichInstancesStillRun() {
        book.plan(A, MoveRole.SOURCE, 1, 9_000, now);
        book.attach(A, "old A");
        book.step(A, MoveEvent.DETACHED, now, null);
        book.plan(B, MoveRole.TARGET, 1, 9_000, now);
        List<MoveBook.Ended<String>> ended = book.shutdown(now);
        assertEquals(2, ended.size());
        assertTrue(ended.stream().allMatch(e -> e.move().state().phase() == MovePhase.SHUT_DOWN));
        assertEquals(List.of("old A"), ended.stream().filter(e -> e.before().instanceLive())
            .map(e -> e.move().handle()).toList());
        assertEquals(0, book.size());
    }

    @Test
    void aSwitchAfterTheWaitTimesOutOnlyTheMovesWithoutConnectionsAndDrainsEverySource() {
        ExecutorId c = new ExecutorId(4, 4);
        book.plan(A, MoveRole.SOURCE, 1, 9_000, now);
        book.attach(A, "old A");
        book.step(A, MoveEvent.DETACHED, now, null);
        book.plan(B, MoveRole.SOURCE, 2, 9_500, now);
        book.attach(B, "old B");
        book.step(B, MoveEvent.DETACHED, now, null);
        book.plan(c, MoveRole.TARGET, 2, 9_500, now);
        book.step(c, MoveEvent.INSTANCE_STARTED, now, null);
        List<MoveBook.Move<String>> claimed = book.refreshed(now);
        now += 1_000;
        MoveBook.Switch<String> sw = book.switched(claimed, false, m -> !m.state().executor().equals(B), now);
        assertEquals(2, sw.out());
        assertEquals(1, sw.in());
        assertEquals(1, sw.timedOut());
        assertEquals(2, sw.planVersion());
        assertEquals(9_500, sw.planWrittenAtMs());
        assertTrue(sw.refused().isEmpty(), () -> sw.refused().toString());
        assertEquals(List.of(A, B), sw.draining().stream().map(m -> m.state().executor()).toList());
        assertEquals(MovePhase.DRAINING, phase(A));
        assertEquals(MovePhase.DRAINING, phase(B));
        assertEquals("connections not ready after 1000 ms", book.get(B).orElseThrow().state().reason());
        assertTrue(book.get(c).isEmpty(), "the target's move is complete");
    }

    @Test
    void aMoveSupersededDuringTheWaitIsLeftToItsSuccessorAndTheRestSwitch() {
        book.plan(A, MoveRole.SOURCE, 1, 9_000, now);
        book.attach(A, "old A");
        book.step(A, MoveEvent.DETACHED, now, null);
        book.plan(B, MoveRole.TARGET, 1, 9_000, now);
        book.step(B, MoveEvent.INSTANCE_STARTED, now, null);
        List<MoveBook.Move<String>> claimed = book.refreshed(now);
        MoveBook.Ended<String> old = book.plan(A, MoveRole.TARGET, 2, 9_900, now).orElseThrow();
        assertTrue(old.before().instanceLive());
        MoveBook.Switch<String> sw = book.switched(claimed, true, m -> true, now);
        assertTrue(sw.draining().isEmpty());
        assertEquals(MovePhase.PLANNED, phase(A), "the new move of A is not touched by the old switch");
        assertTrue(book.get(B).isEmpty());
    }

    @Test
    void aTimeoutBeforeTheWaitEndedIsRefusedAndReported() {
        book.plan(A, MoveRole.SOURCE, 1, 9_000, now);
        book.attach(A, "old A");
        book.step(A, MoveEvent.DETACHED, now, null);
        MoveBook.Switch<String> sw = book.switched(book.refreshed(now), false, m -> false, now + 999);
        assertEquals(2, sw.refused().size(), "the timeout, and then the switch, are refused");
        assertEquals(MovePhase.CONNECTING, phase(A));
        assertEquals(List.of("old A"), book.liveInstances(), "the old instance is still the book's");
    }

    @Test
    void attachingWithoutAMoveIsAnError() {
        assertThrows(IllegalStateException.class, () -> book.attach(A, "x"));
    }
}
