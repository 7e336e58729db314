package io.nonstopstorm.migration.worker;

/**
 * How often a migration step (attach, reconcile) may fail in a row before the worker gives up and exits,
 * so Storm's supervisor relaunches it with its assignment: a worker that cannot follow its plan must not
 * run on with executors Nimbus placed elsewhere. A success resets the count. Thread-safe.
 */
public final class FailureBudget {
    public enum Next { RETRY, EXIT }

    private final int attempts;
    private int failures;

    /** @param attempts failures in a row that end the worker (at least 1) */
    public FailureBudget(int attempts) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
        this.attempts = attempts;
    }

    public synchronized Next failed() {
        failures++;
        return failures >= attempts ? Next.EXIT : Next.RETRY;
    }

    public synchronized void succeeded() {
        failures = 0;
    }

    public synchronized int failures() {
        return failures;
    }
}
