package io.nonstopstorm.migration.state;

/**
 * The outcome of one handoff event: the progress after it, and, when the event was not allowed in the
 * phase, why (the progress is then unchanged; the runtime logs it and goes on).
 */
public record HandoffStep(HandoffProgress before, HandoffEvent event, HandoffProgress after, String illegal) {

    public boolean applied() {
        return illegal == null;
    }

    /** Whether this step entered the phase (and so its effect is the caller's to apply, once). */
    public boolean entered(HandoffPhase phase) {
        return applied() && after.phase() == phase && before.phase() != phase;
    }
}
