package io.nonstopstorm.workloads.measure;

import java.util.ArrayList;
import java.util.List;

/**
 * Buckets spout-side events into wall-clock seconds. Pure: the caller passes the time of every
 * event, so tests drive it with any clock. Seconds with no events are still reported (a stalled
 * topology shows as zeros, not as a gap). Events are attributed to the second they happen in
 * (times must not go backwards); an ack's latency is measured by the caller from the tuple's
 * intended emit time.
 *
 * <p>Each second also carries the longest stretch without an ack that ends in it: the gaps between
 * consecutive acks that end in the second, and the stretch from the last ack to the second's end (so a
 * stall shows while it lasts, not only once acks resume). Per-second counts hide a pause of a few hundred
 * milliseconds; this does not. None before the first ack.
 */
public final class SeriesRecorder {
    private long openSecond = Long.MIN_VALUE;
    private long emitted;
    private long replayed;
    private long acked;
    private long failed;
    private long[] latencies = new long[1024];
    private final List<SecondStats> closed = new ArrayList<>();
    private int nLatencies;
    private long lastAckMs = Long.MIN_VALUE;
    private long longestGapMs = -1;

    /** Gauges sampled when a second closes. */
    public interface Gauges {
        long pending();

        double behindMs();

        long badLines();

        double targetRate();
    }

    private static final Gauges NO_GAUGES = new Gauges() {
        public long pending() {
            return 0;
        }

        public double behindMs() {
            return 0;
        }

        public long badLines() {
            return 0;
        }

        public double targetRate() {
            return 0;
        }
    };

    private final Gauges gauges;

    public SeriesRecorder() {
        this(NO_GAUGES);
    }

    public SeriesRecorder(Gauges gauges) {
        this.gauges = gauges;
    }

    /** Starts the series at the second containing {@code nowMs} (the first reported second). */
    public void start(long nowMs) {
        if (openSecond == Long.MIN_VALUE) {
            openSecond = Math.floorDiv(nowMs, 1000);
        }
    }

    public void emitted(long nowMs) {
        advance(nowMs);
        emitted++;
    }

    public void replayed(long nowMs) {
        advance(nowMs);
        replayed++;
    }

    public void failed(long nowMs) {
        advance(nowMs);
        failed++;
    }

    public void acked(long nowMs, long latencyMicros) {
        advance(nowMs);
        acked++;
        if (lastAckMs != Long.MIN_VALUE) {
            longestGapMs = Math.max(longestGapMs, Math.max(0, nowMs - lastAckMs));
        }
        lastAckMs = Math.max(lastAckMs, nowMs);
        if (nLatencies == latencies.length) {
            latencies = java.util.Arrays.copyOf(latencies, latencies.length * 2);
        }
        latencies[nLatencies++] = Math.max(0, latencyMicros);
    }

    /** Closes every second that ended before {@code nowMs}; returns all closed seconds not yet returned, in order. */
    public List<SecondStats> drain(long nowMs) {
        if (openSecond != Long.MIN_VALUE) {
            advance(nowMs);
        }
        List<SecondStats> out = new ArrayList<>(closed);
        closed.clear();
        return out;
    }

    /** Events belong to the second they happen in: close the seconds that ended before this event. */
    private void advance(long nowMs) {
        start(nowMs);
        long nowSecond = Math.floorDiv(nowMs, 1000);
        while (openSecond < nowSecond) {
            closed.add(close((openSecond + 1) * 1000));
            openSecond++;
        }
    }

    /** Closes the open second even though it has not ended (at shutdown). */
    public List<SecondStats> drainAll(long nowMs) {
        List<SecondStats> out = drain(nowMs);
        if (openSecond != Long.MIN_VALUE && (emitted + replayed + acked + failed) > 0) {
            out.add(close(nowMs));
            openSecond++;
        }
        return out;
    }

    /** Closes the open second as of {@code endMs} (its end, or the shutdown moment). */
    private SecondStats close(long endMs) {
        long gap = longestGapMs;
        if (lastAckMs != Long.MIN_VALUE) {
            gap = Math.max(gap, Math.max(0, endMs - lastAckMs));
        }
        SecondStats s = new SecondStats(openSecond, emitted, replayed, acked, failed,
            LatencySummary.of(latencies, nLatencies), gauges.pending(), gauges.behindMs(), gauges.badLines(),
            gauges.targetRate(), gap);
        longestGapMs = -1;
        emitted = 0;
        replayed = 0;
        acked = 0;
        failed = 0;
        nLatencies = 0;
        return s;
    }
}
