package io.nonstopstorm.migration.worker;

import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Tells a ZooKeeper outage apart from other failures of a worker's periodic ZooKeeper reads, and keeps
 * track of one outage so it is logged when it starts and when it ends.
 *
 * <p>Why: Storm's worker runs its topology-status poll on a timer that halts the JVM on any exception.
 * When ZooKeeper is unreachable for longer than Curator's retries (about 10 s), every worker of the
 * cluster may exit and be relaunched, although none of them needs ZooKeeper to process tuples. During an
 * outage the worker keeps its last known status and the next tick tries again; any other failure stays
 * fatal, as in Storm.
 *
 * <p>Thread-safe. Clock injected (milliseconds).
 */
public final class ZkOutage {
    /** What to log after a poll, if anything. */
    public enum Event { NONE, STARTED, ENDED }

    /** Simple names of the exceptions that mean "ZooKeeper could not be reached" (Storm shades ZooKeeper,
     *  so the package differs from ZooKeeper's own). */
    private static final Set<String> CONNECTIVITY = Set.of(
        "ConnectionLossException", "SessionExpiredException", "OperationTimeoutException",
        "CuratorConnectionLossException", "SessionFailedException");

    private final LongSupplier clock;
    private long startedAtMs = -1;
    private int failures;
    private long lastOutageMs;
    private int lastFailures;

    public ZkOutage(LongSupplier clock) {
        this.clock = clock;
    }

    /** Whether {@code t} (or one of its causes) says ZooKeeper could not be reached. */
    public static boolean isConnectivity(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (CONNECTIVITY.contains(c.getClass().getSimpleName())) {
                return true;
            }
        }
        return false;
    }

    /** A poll failed because ZooKeeper was unreachable. */
    public synchronized Event failed() {
        failures++;
        if (startedAtMs < 0) {
            startedAtMs = clock.getAsLong();
            return Event.STARTED;
        }
        return Event.NONE;
    }

    /** A poll succeeded. */
    public synchronized Event succeeded() {
        if (startedAtMs < 0) {
            return Event.NONE;
        }
        lastOutageMs = clock.getAsLong() - startedAtMs;
        lastFailures = failures;
        startedAtMs = -1;
        failures = 0;
        return Event.ENDED;
    }

    /** Length of the outage that {@link #succeeded()} just ended. */
    public synchronized long lastOutageMs() {
        return lastOutageMs;
    }

    /** Polls that failed during that outage. */
    public synchronized int lastFailures() {
        return lastFailures;
    }
}
