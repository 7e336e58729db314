package io.nonstopstorm.migration.worker;

import io.nonstopstorm.wire.ExecutorId;

/**
 * The rules of one executor's move inside a worker, as a pure step function over {@link MoveState}:
 * no clock of its own (the caller passes the time), no Storm types, no effects. The runtime applies
 * the effect of a transition (start, detach, switch, stop) only when the step was accepted, so an
 * event arriving in the wrong phase changes nothing.
 */
public final class MoveMachine {
    private final long connectWaitMs;
    private final long drainMs;

    /**
     * @param connectWaitMs how long the switch waits for connections to the new homes
     * @param drainMs D_K: how long a source's old instance drains after the switch
     */
    public MoveMachine(long connectWaitMs, long drainMs) {
        if (connectWaitMs < 0 || drainMs < 0) {
            throw new IllegalArgumentException("connect wait and D_K must not be negative: " + connectWaitMs + ", "
                                               + drainMs);
        }
        this.connectWaitMs = connectWaitMs;
        this.drainMs = drainMs;
    }

    public long connectWaitMs() {
        return connectWaitMs;
    }

    public long drainMs() {
        return drainMs;
    }

    /** A move the reconcile just decided. */
    public MoveState plan(ExecutorId executor, MoveRole role, long planVersion, long planWrittenAtMs, long nowMs) {
        return new MoveState(executor, role, MovePhase.PLANNED, planVersion, planWrittenAtMs, nowMs, nowMs, -1, null);
    }

    /** When a source may be stopped (D_K after the switch), or -1 before the switch. */
    public long drainEndsAtMs(MoveState s) {
        return s.switchedAtMs() < 0 ? -1 : s.switchedAtMs() + drainMs;
    }

    public MoveStep step(MoveState s, MoveEvent e, long nowMs) {
        return step(s, e, nowMs, null);
    }

    /**
     * @param detail what the runtime knows about the event (a start failure's cause), or null
     */
    public MoveStep step(MoveState s, MoveEvent e, long clockMs, String detail) {
        MovePhase p = s.phase();
        if (p.terminal()) {
            return illegal(s, e, "the move already ended (" + p.wireName() + ")");
        }
        // A wall clock may step back; a phase never ends before it began.
        long nowMs = Math.max(clockMs, s.phaseSinceMs());
        switch (e) {
            case PLAN_SUPERSEDED:
                return to(s, e, MovePhase.SUPERSEDED, nowMs, detail == null ? "a newer plan changed it" : detail);
            case SHUTDOWN:
                return to(s, e, MovePhase.SHUT_DOWN, nowMs, "worker shutdown");
            case INSTANCE_STARTED:
                return s.role() == MoveRole.TARGET && p == MovePhase.PLANNED
                    ? to(s, e, MovePhase.STARTED, nowMs, null) : wrong(s, e);
            case INSTANCE_FAILED:
                return s.role() == MoveRole.TARGET && p == MovePhase.PLANNED
                    ? to(s, e, MovePhase.START_FAILED, nowMs, detail == null ? "start failed" : detail) : wrong(s, e);
            case DETACHED:
                return s.role() == MoveRole.SOURCE && p == MovePhase.PLANNED
                    ? to(s, e, MovePhase.DETACHED, nowMs, null) : wrong(s, e);
            case REFRESHED:
                return p == MovePhase.STARTED || p == MovePhase.DETACHED
                    ? to(s, e, MovePhase.CONNECTING, nowMs, null) : wrong(s, e);
            case CONNECTIONS_READY:
                return p == MovePhase.CONNECTING ? to(s, e, MovePhase.CONNECTED, nowMs, null) : wrong(s, e);
            case CONNECTIONS_TIMED_OUT:
                if (p != MovePhase.CONNECTING) {
                    return wrong(s, e);
                }
                if (nowMs < s.phaseSinceMs() + connectWaitMs) {
                    return illegal(s, e, "the connection wait has " + (s.phaseSinceMs() + connectWaitMs - nowMs)
                                         + " ms to go");
                }
                return to(s, e, MovePhase.CONNECT_TIMED_OUT, nowMs,
                          "connections not ready after " + (nowMs - s.phaseSinceMs()) + " ms");
            case ROUTING_SWITCHED:
                if (p != MovePhase.CONNECTED && p != MovePhase.CONNECT_TIMED_OUT) {
                    return wrong(s, e);
                }
                return to(s, e, s.role() == MoveRole.SOURCE ? MovePhase.DRAINING : MovePhase.ACTIVE, nowMs, null);
            case DRAIN_ELAPSED:
                if (p != MovePhase.DRAINING) {
                    return wrong(s, e);
                }
                if (nowMs < drainEndsAtMs(s)) {
                    return illegal(s, e, "D_K has " + (drainEndsAtMs(s) - nowMs) + " ms to go");
                }
                return to(s, e, MovePhase.RETIRED, nowMs, null);
            default:
                throw new AssertionError(e);
        }
    }

    private static MoveStep to(MoveState s, MoveEvent e, MovePhase next, long nowMs, String why) {
        return new MoveStep(s, e, s.to(next, nowMs, why), null);
    }

    private static MoveStep wrong(MoveState s, MoveEvent e) {
        return illegal(s, e, e + " is not allowed for a " + s.role().name().toLowerCase(java.util.Locale.ROOT)
                             + " in phase " + s.phase().wireName());
    }

    private static MoveStep illegal(MoveState s, MoveEvent e, String why) {
        return new MoveStep(s, e, s, "move of " + s.executor() + ": " + why);
    }
}
