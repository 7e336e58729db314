package io.nonstopstorm.workloads.feed;

import java.util.List;

/**
 * When each item of a rate-controlled feed is meant to be emitted: item k (0-based) is due at the
 * first time the integral of the rate reaches k + 1. Intended times do not depend on when the
 * spout actually gets to emit, so latency measured from them exposes a stalled system.
 * A schedule change re-anchors at the switch time; items already due keep their old times.
 */
public final class Pacer {
    private final RateSchedule schedule;
    private final double anchorT;
    private final double anchorDue;
    private final Pacer before;

    public Pacer(RateSchedule schedule) {
        this(schedule, 0, 0, null);
    }

    private Pacer(RateSchedule schedule, double anchorT, double anchorDue, Pacer before) {
        this.schedule = schedule;
        this.anchorT = anchorT;
        this.anchorDue = anchorDue;
        this.before = before;
    }

    public RateSchedule schedule() {
        return schedule;
    }

    /** Items due by time t (fractional). */
    public double dueAt(double t) {
        if (t < anchorT) {
            return before != null ? before.dueAt(t) : anchorDue;
        }
        double due = anchorDue;
        List<RateSchedule.Step> steps = schedule.steps();
        for (int i = 0; i < steps.size(); i++) {
            double a = Math.max(steps.get(i).atSeconds(), anchorT);
            double b = i + 1 < steps.size() ? steps.get(i + 1).atSeconds() : Double.POSITIVE_INFINITY;
            if (b <= anchorT || a >= t) {
                continue;
            }
            due += steps.get(i).rate() * (Math.min(b, t) - a);
        }
        return due;
    }

    /** Intended emit time (seconds since start) of item k; +Infinity if the schedule never reaches it. */
    public double timeOf(long k) {
        double need = (k + 1) - anchorDue;
        if (need <= 0) {
            return before != null ? before.timeOf(k) : anchorT;
        }
        List<RateSchedule.Step> steps = schedule.steps();
        for (int i = 0; i < steps.size(); i++) {
            double a = Math.max(steps.get(i).atSeconds(), anchorT);
            double b = i + 1 < steps.size() ? steps.get(i + 1).atSeconds() : Double.POSITIVE_INFINITY;
            if (b <= a) {
                continue;
            }
            double r = steps.get(i).rate();
            if (r <= 0) {
                continue;
            }
            double capacity = r * (b - a);
            if (need <= capacity) {
                return a + need / r;
            }
            need -= capacity;
        }
        return Double.POSITIVE_INFINITY;
    }

    /** A pacer that follows {@code next} from time {@code atT} on. */
    public Pacer switchTo(RateSchedule next, double atT) {
        return new Pacer(next, atT, dueAt(atT), this);
    }
}
