package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class LastKnownAssignmentTest {
    private static final RuntimeException CONNECTION_LOST =
        new RuntimeException(new ZkOutageTest.ConnectionLossException());

    @Test
    void aReadThatFailsForLackOfZooKeeperGetsTheLastAssignmentRead() {
        LastKnownAssignment<String> a = new LastKnownAssignment<>();
        a.read("v1");
        a.read("v2");
        assertEquals(Optional.of("v2"), a.failed(CONNECTION_LOST));
        assertEquals(Optional.of("v2"), a.failed(CONNECTION_LOST));
        assertEquals(2, a.failures());
    }

    @Test
    void aSuccessfulReadAfterAnOutageSaysHowManyReadsFailed() {
        LastKnownAssignment<String> a = new LastKnownAssignment<>();
        assertEquals(0, a.read("v1"));
        a.failed(CONNECTION_LOST);
        a.failed(CONNECTION_LOST);
        a.failed(CONNECTION_LOST);
        assertEquals(3, a.read("v2"));
        assertEquals(0, a.failures());
        assertEquals(Optional.of("v2"), a.failed(CONNECTION_LOST), "the newer read is what is kept");
    }

    @Test
    void otherFailuresStandSoAKilledTopologyStillEndsItsWorkers() {
        LastKnownAssignment<String> a = new LastKnownAssignment<>();
        a.read("v1");
        RuntimeException noAssignment = new RuntimeException(
            "Failed to read worker assignment. Supervisor client threw exception, and assignment in Zookeeper was null",
            new IllegalStateException("No local assignment assigned for storm"));
        assertTrue(a.failed(noAssignment).isEmpty());
        assertEquals(0, a.failures());
    }

    @Test
    void withNothingReadYetEvenAnOutageIsLeftToStorm() {
        LastKnownAssignment<String> a = new LastKnownAssignment<>();
        assertTrue(a.failed(CONNECTION_LOST).isEmpty());
        a.read(null);
        assertTrue(a.failed(CONNECTION_LOST).isEmpty(), "a null read is no assignment to keep");
    }
}
