package io.nonstopstorm.workloads.feed;

import java.util.ArrayList;
import java.util.List;

/**
 * A piecewise-constant target rate (tuples/s) over run time (seconds since the feed started).
 * Text form, one step per line: {@code <at_seconds> <rate>} (whitespace or comma separated,
 * '#' starts a comment); times must not decrease. Before the first step the rate is 0.
 */
public final class RateSchedule {
    public record Step(double atSeconds, double rate) {
    }

    private final List<Step> steps;

    private RateSchedule(List<Step> steps) {
        this.steps = List.copyOf(steps);
    }

    public static RateSchedule constant(double rate) {
        return of(List.of(new Step(0, rate)));
    }

    public static RateSchedule of(List<Step> steps) {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a rate schedule needs at least one step");
        }
        double prev = Double.NEGATIVE_INFINITY;
        for (Step s : steps) {
            if (!(s.atSeconds() >= 0) || Double.isInfinite(s.atSeconds())) {
                throw new IllegalArgumentException("step time must be a finite number >= 0, got " + s.atSeconds());
            }
            if (!(s.rate() >= 0) || Double.isInfinite(s.rate())) {
                throw new IllegalArgumentException("rate must be a finite number >= 0, got " + s.rate());
            }
            if (s.atSeconds() < prev) {
                throw new IllegalArgumentException("step times must not decrease (" + s.atSeconds() + " after " + prev + ")");
            }
            prev = s.atSeconds();
        }
        return new RateSchedule(steps);
    }

    public static RateSchedule parse(String text) {
        List<Step> steps = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("[\\s,]+");
            if (parts.length != 2) {
                throw new IllegalArgumentException("line " + (i + 1) + ": expected '<at_seconds> <rate>', got '"
                    + lines[i].trim() + "'");
            }
            try {
                steps.add(new Step(Double.parseDouble(parts[0]), Double.parseDouble(parts[1])));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": not a number in '" + lines[i].trim() + "'");
            }
        }
        try {
            return of(steps);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("rate schedule: " + e.getMessage());
        }
    }

    public List<Step> steps() {
        return steps;
    }

    public double rateAt(double t) {
        double r = 0;
        for (Step s : steps) {
            if (s.atSeconds() <= t) {
                r = s.rate();
            } else {
                break;
            }
        }
        return r;
    }

    /** The same schedule with every rate multiplied (e.g. one spout task's share). */
    public RateSchedule scaled(double factor) {
        List<Step> out = new ArrayList<>(steps.size());
        for (Step s : steps) {
            out.add(new Step(s.atSeconds(), s.rate() * factor));
        }
        return of(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RateSchedule r && r.steps.equals(steps);
    }

    @Override
    public int hashCode() {
        return steps.hashCode();
    }

    @Override
    public String toString() {
        return "RateSchedule" + steps;
    }
}
