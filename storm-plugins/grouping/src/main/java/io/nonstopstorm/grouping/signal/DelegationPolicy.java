package io.nonstopstorm.grouping.signal;

import java.io.Serializable;

/**
 * How a worker delegates: keep utilisation within [{@code idleBelow}, {@code busyAbove}], signal
 * INCREASE below the lower bound and DECREASE above the upper one, and signal at most once per
 * {@code timeSlot} (in whatever time unit the caller's clock uses: ticks in the simulator,
 * milliseconds in Storm).
 *
 * <p>The paper's threshold values were lost; {@link #DEFAULT_IDLE_BELOW} and {@link #DEFAULT_BUSY_ABOVE}
 * are our placeholders, meant to bracket a target utilisation of about 0.8.
 */
public record DelegationPolicy(double idleBelow, double busyAbove, long timeSlot) implements Serializable {
    public static final double DEFAULT_IDLE_BELOW = 0.7;
    public static final double DEFAULT_BUSY_ABOVE = 0.9;

    public DelegationPolicy {
        if (!(idleBelow >= 0) || !(busyAbove > idleBelow) || Double.isInfinite(busyAbove)) {
            throw new IllegalArgumentException(
                    "thresholds must satisfy 0 <= idleBelow < busyAbove < infinity, got idleBelow=" + idleBelow
                            + " busyAbove=" + busyAbove);
        }
        if (timeSlot <= 0) {
            throw new IllegalArgumentException("time slot must be positive, got " + timeSlot);
        }
    }

    /** The signal this utilisation calls for, ignoring the time slot; null inside the band. */
    public LoadSignal classify(double utilisation) {
        if (utilisation > busyAbove) {
            return LoadSignal.DECREASE;
        }
        if (utilisation < idleBelow) {
            return LoadSignal.INCREASE;
        }
        return null;
    }
}
