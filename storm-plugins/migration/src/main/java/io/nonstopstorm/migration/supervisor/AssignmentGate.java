package io.nonstopstorm.migration.supervisor;

import java.util.Map;

/**
 * Holds back a supervisor's first sync until it has received its assignments from Nimbus.
 *
 * <p>Why: Storm 2.x supervisors keep assignments in an in-memory backend that starts empty and is filled
 * only from Nimbus (its pull at start-up, or a push). A supervisor that starts while Nimbus cannot answer
 * (not the leader yet after a ZooKeeper outage, or down) reads "nothing assigned here" and kills every
 * running worker of its node, which a fail-fast restart makes routine. Until the first assignments arrive
 * the gate turns the read into "could not read" (null), which Storm treats as "try again later": the
 * workers run on with the slots' last known assignments.
 *
 * <p>Thread-safe; one per supervisor JVM.
 */
public final class AssignmentGate {
    /** What the supervisor should log after a decision, or nothing. */
    public enum Change { NONE, HOLDING, OPENED }

    private volatile boolean received;
    private boolean holding;

    /** Nimbus's assignments for this node reached the local backend (possibly an empty set). */
    public void assignmentsReceived() {
        received = true;
    }

    public boolean isOpen() {
        return received;
    }

    /** The assignments the supervisor may act on: {@code local} once received, else null ("try later"). */
    public <T> Map<Integer, T> admit(Map<Integer, T> local) {
        return received ? local : null;
    }

    /** Records this round's verdict and says whether it differs from the last one (to log once). */
    public synchronized Change note() {
        if (!received && !holding) {
            holding = true;
            return Change.HOLDING;
        }
        if (received && holding) {
            holding = false;
            return Change.OPENED;
        }
        return Change.NONE;
    }
}
