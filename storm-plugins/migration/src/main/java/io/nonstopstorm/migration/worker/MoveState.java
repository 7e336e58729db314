package io.nonstopstorm.migration.worker;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Objects;

/**
 * One executor's move in this worker at one moment; immutable, changed only by {@link MoveMachine}.
 *
 * @param planWrittenAtMs when the plan that started the move was written (its writer's clock)
 * @param plannedAtMs when the reconcile decided the move
 * @param phaseSinceMs when the current phase began
 * @param switchedAtMs when routing switched, or -1 before
 * @param reason why a failure exit or a degraded phase happened, or null
 */
public record MoveState(ExecutorId executor, MoveRole role, MovePhase phase, long planVersion,
                        long planWrittenAtMs, long plannedAtMs,
                        long phaseSinceMs, long switchedAtMs, String reason) {

    public MoveState {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(phase, "phase");
    }

    MoveState to(MovePhase next, long nowMs, String why) {
        long switched = next == MovePhase.DRAINING || next == MovePhase.ACTIVE ? nowMs : switchedAtMs;
        return new MoveState(executor, role, next, planVersion, planWrittenAtMs, plannedAtMs, nowMs, switched,
                             why == null ? reason : why);
    }

    /** Whether the old executor instance still runs (a source before its stop). */
    public boolean instanceLive() {
        return phase.instanceLive(role);
    }
}
