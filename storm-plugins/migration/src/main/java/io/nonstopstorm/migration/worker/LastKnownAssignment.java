package io.nonstopstorm.migration.worker;

import java.util.Optional;

/**
 * The worker's last assignment read, to stand in for a read that failed because ZooKeeper was
 * unreachable.
 *
 * <p>Why: Storm's connection refresh treats a failed assignment read as "no assignment", and a worker
 * without an assignment halts ("We should not be alive!"). A ZooKeeper outage longer than Curator's
 * retries (about 30 s) would so kill every worker, although none needs ZooKeeper to process tuples.
 * While ZooKeeper is unreachable the worker keeps what it last read, its routes stay as they were, and
 * the next refresh reads again. A read that fails otherwise (the topology was killed: ZooKeeper answered
 * "no assignment") stays Storm's to decide, as does a failure before anything was ever read.
 *
 * <p>Thread-safe. Generic so the rule is tested without Storm's classes.
 *
 * @param <A> the assignment type
 */
public final class LastKnownAssignment<A> {
    private A last;
    private int failures;

    /**
     * A read returned {@code value}.
     *
     * @return how many reads had failed in a row before it (0 when none)
     */
    public synchronized int read(A value) {
        if (value != null) {
            last = value;
        }
        int before = failures;
        failures = 0;
        return before;
    }

    /**
     * A read threw {@code error}.
     *
     * @return the assignment to use instead, or empty to let the failure stand
     */
    public synchronized Optional<A> failed(Throwable error) {
        if (last == null || !ZkOutage.isConnectivity(error)) {
            return Optional.empty();
        }
        failures++;
        return Optional.of(last);
    }

    /** Reads that failed in a row so far (1 right after the first one). */
    public synchronized int failures() {
        return failures;
    }
}
