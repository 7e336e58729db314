package io.nonstopstorm.migration.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.supervisor.AssignmentGate.Change;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AssignmentGateTest {
    @Test
    void holdsEveryReadBackUntilNimbusAssignmentsArriveThenPassesThemThrough() {
        AssignmentGate gate = new AssignmentGate();
        Map<Integer, String> empty = Map.of();   // what an unsynced in-memory backend yields: "nothing here"
        assertFalse(gate.isOpen());
        assertNull(gate.admit(empty), "an empty read before any sync must not reach the slots");
        assertNull(gate.admit(Map.of(6700, "topo")));

        gate.assignmentsReceived();
        assertTrue(gate.isOpen());
        Map<Integer, String> local = Map.of(6700, "topo");
        assertSame(local, gate.admit(local));
        assertSame(empty, gate.admit(empty), "once synced, an empty node is really empty");
    }

    @Test
    void reportsEachChangeOfVerdictOnce() {
        AssignmentGate gate = new AssignmentGate();
        assertEquals(Change.HOLDING, gate.note());
        assertEquals(Change.NONE, gate.note());
        gate.assignmentsReceived();
        assertEquals(Change.OPENED, gate.note());
        assertEquals(Change.NONE, gate.note());
    }

    @Test
    void aSupervisorSyncedBeforeItsFirstReadNeverReportsHolding() {
        AssignmentGate gate = new AssignmentGate();
        gate.assignmentsReceived();
        assertEquals(Change.NONE, gate.note());
    }
}
