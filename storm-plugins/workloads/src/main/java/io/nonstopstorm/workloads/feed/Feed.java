package io.nonstopstorm.workloads.feed;

import java.util.List;

/**
 * The items one spout task emits and when each is meant to be emitted (seconds since the feed
 * started). Pure: no clock inside, the spout asks with its own notion of "now".
 */
public interface Feed {
    /** Intended time of the next item; +Infinity if there is none (now or ever). */
    double nextTime();

    /** The next item's tuple values; call only when {@link #nextTime()} is finite. */
    List<Object> take();

    /** True once no further item will ever come. */
    boolean exhausted();

    /** Input lines skipped as unreadable so far. */
    default long badLines() {
        return 0;
    }

    /** Target rate (tuples/s) of this task at time t, for the series; NaN if not rate-driven. */
    double targetRate(double t);
}
