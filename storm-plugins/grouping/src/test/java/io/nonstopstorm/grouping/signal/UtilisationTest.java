package io.nonstopstorm.grouping.signal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class UtilisationTest {
    private static TaskLoad window(long instance, long seq, Double busy, long executed, Integer queue) {
        return new TaskLoad(3, instance, seq, 2_000 * seq, 2.0, busy, executed, queue);
    }

    @Test
    void arrivalsOverWhatTheWorkerCanServe() {
        // 200 executed, busy 0.5: 2.5 ms each over a 2 s window; 100 more arrived (queue 10 -> 110)
        assertEquals(0.75, Utilisation.of(window(1, 4, 0.4, 150, 10), window(1, 5, 0.5, 200, 110)), 1e-9);
        // steady queue: utilisation is the busy fraction
        assertEquals(0.6, Utilisation.of(window(1, 4, 0.6, 200, 7), window(1, 5, 0.6, 200, 7)), 1e-9);
    }

    @Test
    void aWorkerDrainingABacklogIsNotBusyAtItsCurrentShare() {
        // saturated (busy 1.0) while its queue shrinks from 500 to 300: only 100 of the 300 served arrived now
        assertEquals(1.0 / 3, Utilisation.of(window(1, 4, 1.0, 300, 500), window(1, 5, 1.0, 300, 300)), 1e-9);
    }

    @Test
    void workersThatServedNothingAreIdleOrStuck() {
        assertEquals(0.0, Utilisation.of(window(1, 4, 0.0, 0, 0), window(1, 5, 0.0, 0, 0)));
        assertEquals(Double.POSITIVE_INFINITY, Utilisation.of(window(1, 4, 0.0, 0, 2), window(1, 5, 0.0, 0, 9)));
    }

    @Test
    void unknownWithoutTheDirectlyPrecedingWindowOfTheSameProcess() {
        TaskLoad current = window(1, 5, 0.5, 200, 0);
        assertNull(Utilisation.of(null, current));
        assertNull(Utilisation.of(window(1, 3, 0.5, 200, 0), current), "a window was missed");
        assertNull(Utilisation.of(window(2, 4, 0.5, 200, 0), current), "another process");
        assertNull(Utilisation.of(window(1, 4, 0.5, 200, null), current), "queue unknown");
        assertNull(Utilisation.of(window(1, 4, 0.5, 200, 0), window(1, 5, null, 200, 0)), "busy unknown");
    }
}
