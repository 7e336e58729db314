package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ExecutorId;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MoveMachineTest {
    private static final long WAIT = 5_000;
    private static final long DK = 2_000;
    private static final ExecutorId EX = new ExecutorId(3, 4);

    private final MoveMachine machine = new MoveMachine(WAIT, DK);
    /** Simulated time: every test moves it by hand. */
    private long now = 1_000_000;

    private MoveState accept(MoveState s, MoveEvent e) {
        return accept(s, e, null);
    }

    private MoveState accept(MoveState s, MoveEvent e, String detail) {
        MoveStep step = machine.step(s, e, now, detail);
        assertTrue(step.applied(), () -> "refused: " + step.illegal());
        return step.after();
    }

    private void refused(MoveState s, MoveEvent e) {
        MoveStep step = machine.step(s, e, now);
        assertFalse(step.applied(), () -> e + " accepted in " + s.phase());
        assertSame(s, step.after(), "a refused event changes nothing");
        assertTrue(step.illegal().contains(EX.toString()), step.illegal());
    }

    @Test
    void aSourceGoesFromPlannedThroughDrainingToRetiredAfterDk() {
        MoveState s = machine.plan(EX, MoveRole.SOURCE, 7, 900_000, now);
        assertEquals(MovePhase.PLANNED, s.phase());
        s = accept(s, MoveEvent.DETACHED);
        assertEquals(MovePhase.DETACHED, s.phase());
        assertTrue(s.instanceLive());
        now += 30;
        s = accept(s, MoveEvent.REFRESHED);
        assertEquals(MovePhase.CONNECTING, s.phase());
        now += 40;
        s = accept(s, MoveEvent.CONNECTIONS_READY);
        assertEquals(MovePhase.CONNECTED, s.phase());
        now += 1;
        s = accept(s, MoveEvent.ROUTING_SWITCHED);
        assertEquals(MovePhase.DRAINING, s.phase());
        assertEquals(now, s.switchedAtMs());
        assertEquals(now + DK, machine.drainEndsAtMs(s));
        now += DK - 1;
        refused(s, MoveEvent.DRAIN_ELAPSED);
        now += 1;
        s = accept(s, MoveEvent.DRAIN_ELAPSED);
        assertEquals(MovePhase.RETIRED, s.phase());
        assertTrue(s.phase().terminal());
        assertFalse(s.instanceLive());
        assertEquals(7, s.planVersion());
        assertEquals(1_000_000, s.plannedAtMs());
        assertEquals(900_000, s.planWrittenAtMs());
        assertNull(s.reason());
    }

    @Test
    void aTargetGoesFromPlannedThroughStartedToActive() {
        MoveState s = machine.plan(EX, MoveRole.TARGET, 8, 900_000, now);
        s = accept(s, MoveEvent.INSTANCE_STARTED);
        assertEquals(MovePhase.STARTED, s.phase());
        assertFalse(s.instanceLive(), "a target's instance is the new one, not one to stop");
        s = accept(s, MoveEvent.REFRESHED);
        s = accept(s, MoveEvent.CONNECTIONS_READY);
        now += 5;
        s = accept(s, MoveEvent.ROUTING_SWITCHED);
        assertEquals(MovePhase.ACTIVE, s.phase());
        assertTrue(s.phase().terminal());
        assertEquals(-1, machine.drainEndsAtMs(machine.plan(EX, MoveRole.TARGET, 8, 900_000, now)));
    }

    @Test
    void aTargetThatFailsToStartEndsWithItsReason() {
        MoveState s = machine.plan(EX, MoveRole.TARGET, 8, 900_000, now);
        s = accept(s, MoveEvent.INSTANCE_FAILED, "starting executor [3, 4] failed: boom");
        assertEquals(MovePhase.START_FAILED, s.phase());
        assertEquals("starting executor [3, 4] failed: boom", s.reason());
        assertTrue(s.phase().terminal());
        refused(s, MoveEvent.REFRESHED);
        refused(s, MoveEvent.ROUTING_SWITCHED);
    }

    @Test
    void connectionsThatNeverGetReadyTimeOutOnlyAfterTheWaitAndRoutingThenSwitchesAnyway() {
        MoveState s = accept(machine.plan(EX, MoveRole.SOURCE, 1, 900_000, now), MoveEvent.DETACHED);
        s = accept(s, MoveEvent.REFRESHED);
        now += WAIT - 1;
        refused(s, MoveEvent.CONNECTIONS_TIMED_OUT);
        now += 1;
        s = accept(s, MoveEvent.CONNECTIONS_TIMED_OUT);
        assertEquals(MovePhase.CONNECT_TIMED_OUT, s.phase());
        assertEquals("connections not ready after " + WAIT + " ms", s.reason());
        refused(s, MoveEvent.CONNECTIONS_READY);
        s = accept(s, MoveEvent.ROUTING_SWITCHED);
        assertEquals(MovePhase.DRAINING, s.phase());
        assertTrue(s.instanceLive());
    }

    @Test
    void aSupersededPlanEndsEveryLivePhaseInSupersededAndKeepsWhetherAnInstanceRuns() {
        for (MoveRole role : MoveRole.values()) {
            for (MoveState s : reachable(role)) {
                if (s.phase().terminal()) {
                    refused(s, MoveEvent.PLAN_SUPERSEDED);
                    continue;
                }
                MoveStep step = machine.step(s, MoveEvent.PLAN_SUPERSEDED, now, "plan v9 changed it again");
                assertTrue(step.applied());
                assertTrue(step.entered(MovePhase.SUPERSEDED));
                assertEquals("plan v9 changed it again", step.after().reason());
                assertFalse(step.after().instanceLive(), "after the exit the caller owns the stop");
                assertEquals(role == MoveRole.SOURCE && s.phase() != MovePhase.PLANNED, step.before().instanceLive(),
                             "whether an old instance is left to stop, from " + s.phase());
            }
        }
    }

    @Test
    void shutdownEndsEveryLivePhaseInShutDown() {
        for (MoveRole role : MoveRole.values()) {
            for (MoveState s : reachable(role)) {
                if (s.phase().terminal()) {
                    refused(s, MoveEvent.SHUTDOWN);
                } else {
                    MoveState after = accept(s, MoveEvent.SHUTDOWN);
                    assertEquals(MovePhase.SHUT_DOWN, after.phase());
                    assertEquals("worker shutdown", after.reason());
                }
            }
        }
    }

    @Test
    void everyEventOutsideItsPhasesIsRefusedAndChangesNothing() {
        int refusedCount = 0;
        for (MoveRole role : MoveRole.values()) {
            for (MoveState s : reachable(role)) {
                for (MoveEvent e : MoveEvent.values()) {
                    MoveStep step = machine.step(s, e, now + WAIT + DK);
                    if (!step.applied()) {
                        assertSame(s, step.after());
                        refusedCount++;
                    } else {
                        assertFalse(s.phase().terminal(), e + " accepted after the move ended");
                    }
                }
            }
        }
        // The events each role may never see in a live phase, at least: a source never starts, a target never
        // detaches or drains.
        assertTrue(refusedCount > 50, "refused " + refusedCount);
        MoveState source = machine.plan(EX, MoveRole.SOURCE, 1, 900_000, now);
        refused(source, MoveEvent.INSTANCE_STARTED);
        refused(source, MoveEvent.INSTANCE_FAILED);
        refused(source, MoveEvent.ROUTING_SWITCHED);
        MoveState target = machine.plan(EX, MoveRole.TARGET, 1, 900_000, now);
        refused(target, MoveEvent.DETACHED);
        refused(target, MoveEvent.DRAIN_ELAPSED);
        refused(accept(target, MoveEvent.INSTANCE_STARTED), MoveEvent.INSTANCE_STARTED);
    }

    @Test
    void aClockThatStepsBackNeitherRefusesNorEndsAPhaseEarly() {
        MoveState s = accept(machine.plan(EX, MoveRole.SOURCE, 1, 900_000, now), MoveEvent.DETACHED);
        s = accept(s, MoveEvent.REFRESHED);
        long since = s.phaseSinceMs();
        now -= 10_000;
        refused(s, MoveEvent.CONNECTIONS_TIMED_OUT);
        s = accept(s, MoveEvent.CONNECTIONS_READY);
        assertEquals(since, s.phaseSinceMs());
    }

    @Test
    void negativeDurationsAreRejectedAtConstruction() {
        assertThrows(IllegalArgumentException.class, () -> new MoveMachine(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> new MoveMachine(0, -1));
    }

    /** One state of each phase a role can reach, by accepted steps only. */
    private Set<MoveState> reachable(MoveRole role) {
        Set<MoveState> out = new java.util.LinkedHashSet<>();
        MoveState s = machine.plan(EX, role, 1, 900_000, now);
        out.add(s);
        if (role == MoveRole.TARGET) {
            out.add(accept(s, MoveEvent.INSTANCE_FAILED, "no"));
            s = accept(s, MoveEvent.INSTANCE_STARTED);
        } else {
            s = accept(s, MoveEvent.DETACHED);
        }
        out.add(s);
        s = accept(s, MoveEvent.REFRESHED);
        out.add(s);
        MoveState waited = machine.step(s, MoveEvent.CONNECTIONS_TIMED_OUT, now + WAIT).after();
        out.add(waited);
        s = accept(s, MoveEvent.CONNECTIONS_READY);
        out.add(s);
        out.add(accept(s, MoveEvent.SHUTDOWN));
        s = accept(s, MoveEvent.ROUTING_SWITCHED);
        out.add(s);
        if (role == MoveRole.SOURCE) {
            out.add(machine.step(s, MoveEvent.DRAIN_ELAPSED, now + DK).after());
        }
        out.add(accept(machine.plan(EX, role, 1, 900_000, now), MoveEvent.PLAN_SUPERSEDED));
        Set<MovePhase> phases = EnumSet.noneOf(MovePhase.class);
        out.forEach(x -> phases.add(x.phase()));
        Set<MovePhase> expected = role == MoveRole.SOURCE
            ? EnumSet.complementOf(EnumSet.of(MovePhase.STARTED, MovePhase.ACTIVE, MovePhase.START_FAILED))
            : EnumSet.complementOf(EnumSet.of(MovePhase.DETACHED, MovePhase.DRAINING, MovePhase.RETIRED));
        assertEquals(expected, phases, "every phase of a " + role + " is covered");
        return out;
    }
}
