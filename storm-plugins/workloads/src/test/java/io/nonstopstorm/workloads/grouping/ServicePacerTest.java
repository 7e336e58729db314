package io.nonstopstorm.workloads.grouping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ServicePacerTest {
    private static final long SLACK = 300;
    private static final long COST = 1_000;

    @Test
    void queuedTuplesAreServedFromThePreviousDeadlineSoLateWakeUpsArePaidBack() {
        ServicePacer pacer = new ServicePacer(SLACK);
        assertEquals(1_000, pacer.deadline(0, COST));
        pacer.done(1_700);                                // woke up 700 ns late
        assertEquals(2_000, pacer.deadline(1_750, COST)); // the next one was waiting: still one cost later
        // a thousand queued tuples, each wake-up 5 costs late: the worker still serves one per cost
        long now = 2_000;
        long deadline = 0;
        for (int i = 0; i < 1_000; i++) {
            pacer.done(now);
            deadline = pacer.deadline(now + 50, COST);
            now = Math.max(now + 50, deadline + (i % 10 == 0 ? 5 * COST : 0));
        }
        assertEquals(1_002_000, deadline);
    }

    @Test
    void aTupleThatFindsTheWorkerIdleStartsWhenItComes() {
        ServicePacer pacer = new ServicePacer(SLACK);
        pacer.deadline(0, COST);
        pacer.done(1_000);
        assertEquals(6_000, pacer.deadline(5_000, COST));
        pacer.done(6_000);
        assertEquals(7_301, pacer.deadline(6_301, COST), "just beyond the slack: idle");
    }
}
