package io.nonstopstorm.workloads.grouping;

/**
 * Keeps a worker's service rate at one tuple per cost although waking up from a wait is late (always a
 * little, a lot on a crowded machine): a tuple taken up right after the previous one returned was
 * waiting in the queue, so its service starts at the previous deadline and a late wake-up is paid back
 * instead of slowing the worker down. A tuple that comes later than {@code slackNanos} after the previous
 * one returned found the worker idle and starts now. Pure: the caller passes time in.
 */
public final class ServicePacer {
    private final long slackNanos;
    private long lastDeadline;
    private long lastDone = Long.MIN_VALUE;

    public ServicePacer(long slackNanos) {
        if (slackNanos < 0) {
            throw new IllegalArgumentException("slack must be >= 0 ns, got " + slackNanos);
        }
        this.slackNanos = slackNanos;
    }

    /** When a tuple of {@code costNanos}, taken up at {@code nowNanos}, is done (may be past: no wait). */
    public long deadline(long nowNanos, long costNanos) {
        boolean queued = lastDone != Long.MIN_VALUE && nowNanos - lastDone <= slackNanos;
        lastDeadline = (queued ? lastDeadline : nowNanos) + costNanos;
        return lastDeadline;
    }

    /** The tuple's service returned at {@code nowNanos}. */
    public void done(long nowNanos) {
        lastDone = nowNanos;
    }
}
