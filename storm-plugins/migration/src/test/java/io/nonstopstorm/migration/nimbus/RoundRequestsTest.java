package io.nonstopstorm.migration.nimbus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RoundRequestsTest {
    /** A timer that runs queued tasks only when told: the test plays Nimbus's timer thread. */
    private final Deque<Runnable> timer = new ArrayDeque<>();
    private final AtomicInteger rounds = new AtomicInteger();

    private void runQueued() {
        while (!timer.isEmpty()) {
            timer.poll().run();
        }
    }

    @Test
    void requestsWhileOneWaitsShareThatRound() {
        RoundRequests r = new RoundRequests(timer::add, rounds::incrementAndGet);
        assertTrue(r.request());
        assertFalse(r.request());
        assertFalse(r.request());
        assertEquals(1, timer.size());
        runQueued();
        assertEquals(1, rounds.get());
    }

    @Test
    void aRequestDuringARoundQueuesOneMore() {
        RoundRequests[] self = new RoundRequests[1];
        boolean[] queuedDuringRound = new boolean[1];
        self[0] = new RoundRequests(timer::add, () -> {
            if (rounds.incrementAndGet() == 1) {
                queuedDuringRound[0] = self[0].request();   // a plan written while the round reads plans
            }
        });
        self[0].request();
        runQueued();
        assertTrue(queuedDuringRound[0]);
        assertEquals(2, rounds.get());
    }

    @Test
    void aRefusedSubmissionLeavesNothingQueued() {
        boolean[] closed = {true};
        RoundRequests r = new RoundRequests(task -> {
            if (closed[0]) {
                throw new IllegalStateException("timer is not active");
            }
            timer.add(task);
        }, rounds::incrementAndGet);
        assertThrows(IllegalStateException.class, r::request);
        closed[0] = false;
        assertTrue(r.request(), "the failed request must not leave a round marked as waiting");
        runQueued();
        assertEquals(1, rounds.get());
    }
}
