package io.nonstopstorm.migration.nimbus;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Requests for an extra scheduling round, coalesced: at most one requested round waits at a time. A request
 * made while a requested round already runs queues one more, because that round may have read the plans
 * before the new one was written.
 *
 * <p>Why a queue and not a direct call: Nimbus's rounds must stay serial, so a round is only ever put on
 * Nimbus's own timer thread ({@code submit}), which also runs the periodic rounds.
 */
public final class RoundRequests {
    private final Consumer<Runnable> submit;
    private final Runnable round;
    private final AtomicBoolean waiting = new AtomicBoolean();

    /** {@code submit} puts a task on the thread that runs the rounds; {@code round} is one round. */
    public RoundRequests(Consumer<Runnable> submit, Runnable round) {
        this.submit = submit;
        this.round = round;
    }

    /**
     * Asks for a round soon. Returns true when a round was queued, false when one was already waiting (it
     * will see whatever prompted this request). If {@code submit} throws, nothing stays queued and the
     * exception goes to the caller.
     */
    public boolean request() {
        if (!waiting.compareAndSet(false, true)) {
            return false;
        }
        try {
            submit.accept(this::run);
        } catch (RuntimeException e) {
            waiting.set(false);
            throw e;
        }
        return true;
    }

    private void run() {
        // Cleared before the round starts: a request arriving during the round queues the next one.
        waiting.set(false);
        round.run();
    }
}
