package io.nonstopstorm.migration.state;

/**
 * Where one executor's state handoff stands, seen from the source (the old instance's worker). The
 * happy path is REQUESTED, DRAINING_OLD, SNAPSHOT_TAKEN, TRANSFERRING, AWAITING_INSTALL, INSTALLED,
 * RELEASED; the failure
 * exits ABORTED_KEEP_OLD and REFUSED_TOO_LARGE leave the state with the old instance.
 */
public enum HandoffPhase {
    /** The move was planned for an executor with state; nothing happened yet. */
    REQUESTED(false),
    /** Routing switched; the old instance processes what is queued ahead of the barrier. */
    DRAINING_OLD(false),
    /** The old instance reached the barrier, took its snapshot and parked; its size was within the limit. */
    SNAPSHOT_TAKEN(false),
    /** Chunks are on their way; the target acknowledges them cumulatively. */
    TRANSFERRING(false),
    /**
     * Every chunk is acknowledged; the old instance keeps its copy until the target confirms the install,
     * so a target that dies while restoring (or whose confirmation never comes) loses nothing.
     */
    AWAITING_INSTALL(false),
    /** The target restored the snapshot and owns the state; the old copy is stale. */
    INSTALLED(false),
    /** The old instance dropped its copy and was stopped. */
    RELEASED(true),
    /** The handoff failed before the install: the old instance resumes with its state. */
    ABORTED_KEEP_OLD(true),
    /** The snapshot was over the size limit: nothing was sent, the old instance resumes with its state. */
    REFUSED_TOO_LARGE(true);

    private final boolean terminal;

    HandoffPhase(boolean terminal) {
        this.terminal = terminal;
    }

    public boolean terminal() {
        return terminal;
    }

    /** Whether the old instance's copy is the state (so it must be kept, and resumed on a failure exit). */
    public boolean oldInstanceOwnsState() {
        return this != INSTALLED && this != RELEASED;
    }

    /** Whether the new instance may process tuples (its gate is open). */
    public boolean targetMayProcess() {
        return this == INSTALLED || this == RELEASED;
    }

    /** The name written to the migration event log. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
