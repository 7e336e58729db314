package io.nonstopstorm.migration.worker;

/**
 * Where one executor's move stands inside one worker. A target worker goes PLANNED, STARTED,
 * CONNECTING, CONNECTED (or CONNECT_TIMED_OUT), ACTIVE; a source worker goes PLANNED, DETACHED,
 * CONNECTING, CONNECTED (or CONNECT_TIMED_OUT), DRAINING, RETIRED. The last five are terminal.
 */
public enum MovePhase {
    /** The reconcile decided the move; nothing is applied yet. */
    PLANNED(false),
    /** Target: the executor runs here and takes local deliveries. */
    STARTED(false),
    /** Source: the executor left local routing but runs on, draining its queue. */
    DETACHED(false),
    /** Storm's connection refresh ran; waiting for the connections to the new homes to be ready. */
    CONNECTING(false),
    /** Every connection the switch needs is ready. */
    CONNECTED(false),
    /** The wait for connections ended before they were ready; routing switches anyway (the sender buffers). */
    CONNECT_TIMED_OUT(false),
    /** Source: routing switched; the old instance drains for D_K before its lazy kill. */
    DRAINING(false),
    /** Target: routing switched; the move is complete here. */
    ACTIVE(true),
    /** Source: the old instance was stopped after D_K; the move is complete here. */
    RETIRED(true),
    /** Target: the executor could not be started; nothing of it stays registered. */
    START_FAILED(true),
    /** A newer plan changed this executor again before the move completed. */
    SUPERSEDED(true),
    /** The worker shut down during the move. */
    SHUT_DOWN(true);

    private final boolean terminal;

    MovePhase(boolean terminal) {
        this.terminal = terminal;
    }

    public boolean terminal() {
        return terminal;
    }

    /** Source phases in which the old executor instance is still running. */
    public boolean instanceLive(MoveRole role) {
        return role == MoveRole.SOURCE && (this == DETACHED || this == CONNECTING || this == CONNECTED
                                           || this == CONNECT_TIMED_OUT || this == DRAINING);
    }

    /** The name written to the migration event log. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
