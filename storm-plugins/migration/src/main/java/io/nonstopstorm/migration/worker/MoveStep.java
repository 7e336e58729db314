package io.nonstopstorm.migration.worker;

/**
 * The outcome of one event: the state after it, and, when the event was not allowed in the phase, why
 * (the state is then unchanged; the runtime logs it and goes on).
 */
public record MoveStep(MoveState before, MoveEvent event, MoveState after, String illegal) {

    public boolean applied() {
        return illegal == null;
    }

    /** Whether this step entered the phase (and so its effect is the caller's to apply, once). */
    public boolean entered(MovePhase phase) {
        return applied() && after.phase() == phase && before.phase() != phase;
    }
}
