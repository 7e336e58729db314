package io.nonstopstorm.scheduling.otd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class WorkerShareTest {

    @Test
    void aWorkersLoadIsAShareOfItsEvenPartOfTheRoomItsNodeLeaves() {
        assertEquals(0.5, WorkerShare.of(0.5, 2.0, 2), 1e-12, "2 cores left for 2 workers: 1 core each, 0.5 used");
        assertEquals(0.25, WorkerShare.of(0.5, 2.0, 1), 1e-12);
        assertEquals(2.0, WorkerShare.of(1.0, 0.5, 1), 1e-12, "more than its part: above 1");
    }

    @Test
    void unboundedAndExhaustedNodes() {
        assertEquals(0.0, WorkerShare.of(3.0, Double.POSITIVE_INFINITY, 1));
        assertEquals(Double.POSITIVE_INFINITY, WorkerShare.of(0.1, 0.0, 1));
        assertEquals(Double.POSITIVE_INFINITY, WorkerShare.of(0.1, -0.5, 2));
        assertEquals(0.0, WorkerShare.of(0.0, -0.5, 2), "an idle worker is idle even on a full node");
        assertThrows(IllegalArgumentException.class, () -> WorkerShare.of(0.1, 1.0, 0));
    }
}
