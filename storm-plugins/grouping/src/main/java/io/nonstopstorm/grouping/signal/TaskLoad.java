package io.nonstopstorm.grouping.signal;

/**
 * One worker task's load over one reporting window, as its worker process published it.
 *
 * @param task          Storm task id
 * @param instance      identifies the reporting process (its pid): windows of a restarted worker are new
 * @param seq           the window's number in that process (1, 2, 3, ...)
 * @param windowEndMs   end of the window, wall clock of the reporting worker
 * @param windowSeconds length of the window
 * @param busy          fraction of the window spent processing; null if unknown
 * @param executed      tuples processed in the window
 * @param queueLength   tuples waiting at the end of the window; null if unknown
 */
public record TaskLoad(int task, long instance, long seq, long windowEndMs, double windowSeconds, Double busy,
                       long executed, Integer queueLength) {

    public TaskLoad {
        if (!(windowSeconds > 0)) {
            throw new IllegalArgumentException("window length must be positive, got " + windowSeconds);
        }
        if (executed < 0) {
            throw new IllegalArgumentException("executed tuples must be >= 0, got " + executed);
        }
    }

    /** Start of the window, ms (the same arithmetic wherever it is computed, so readers agree). */
    public long windowStartMs() {
        return windowEndMs - Math.round(windowSeconds * 1000);
    }

    /** Whether {@code next} is the window that directly follows this one in the same process. */
    public boolean isFollowedBy(TaskLoad next) {
        return next.task == task && next.instance == instance && next.seq == seq + 1;
    }
}
