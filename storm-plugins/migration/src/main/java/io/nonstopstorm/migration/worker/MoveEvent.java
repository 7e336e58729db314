package io.nonstopstorm.migration.worker;

/** What the worker runtime observes during a move; {@link MoveMachine} decides what it means. */
public enum MoveEvent {
    /** Target: the executor was built and its thread launched. */
    INSTANCE_STARTED,
    /** Target: building or launching the executor failed (rolled back). */
    INSTANCE_FAILED,
    /** Source: the executor left local routing, heartbeat and executor list. */
    DETACHED,
    /** Storm's connection refresh after the reconcile finished. */
    REFRESHED,
    /** The connections to the moved tasks' new homes are ready. */
    CONNECTIONS_READY,
    /** The connection wait ran out. */
    CONNECTIONS_TIMED_OUT,
    /** Local senders switched to the new routing (routing epoch bumped). */
    ROUTING_SWITCHED,
    /** Source: D_K passed since the switch. */
    DRAIN_ELAPSED,
    /** A newer plan changed this executor again. */
    PLAN_SUPERSEDED,
    /** The worker is shutting down. */
    SHUTDOWN
}
