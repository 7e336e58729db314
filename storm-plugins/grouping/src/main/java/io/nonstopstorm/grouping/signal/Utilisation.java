package io.nonstopstorm.grouping.signal;

/**
 * A worker's utilisation over a window as the paper's simulation defines it: the work that arrived in the
 * window over the work the worker could do in it, here (tuples executed + growth of its queue) x the time
 * one tuple takes while the worker is busy. Unlike the busy fraction alone it does not read 1.0 while a
 * worker drains a backlog that its current share no longer feeds (which would make it shed virtual
 * workers until it has one), and it exceeds 1.0 when tuples arrive faster than they are served.
 */
public final class Utilisation {
    private Utilisation() {
    }

    /**
     * Utilisation over {@code current}, given the window before it ({@code previous}, same process, seq - 1)
     * for the queue's growth; null when it cannot be known (no previous window, unknown queue or busy).
     * A worker that executed nothing reads 0 with an empty queue and +infinity with a waiting one (stuck).
     */
    public static Double of(TaskLoad previous, TaskLoad current) {
        if (previous == null || !previous.isFollowedBy(current) || current.busy() == null
                || current.queueLength() == null || previous.queueLength() == null) {
            return null;
        }
        long arrived = Math.max(0, current.executed() + current.queueLength() - previous.queueLength());
        if (current.executed() == 0) {
            return current.queueLength() > 0 ? Double.POSITIVE_INFINITY : 0.0;
        }
        return current.busy() * arrived / current.executed();
    }
}
