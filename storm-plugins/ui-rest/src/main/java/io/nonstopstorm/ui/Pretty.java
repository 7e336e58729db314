package io.nonstopstorm.ui;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/** Display formats the Storm UI REST API uses for durations and decimal statistics. */
public final class Pretty {

    private static final String[] UNITS = {"s", "m", "h", "d"};
    private static final int[] UNIT_SIZES = {60, 60, 24};

    private Pretty() {
    }

    /**
     * Seconds as "1d 2h 3m 4s", dropping leading zero units only ("10m 0s" for 600), as Storm's UI shows it.
     * Zero reads "0s" (Storm prints an empty string there; a visible zero means the same and reads better).
     */
    public static String duration(long seconds) {
        if (seconds <= 0) {
            return "0s";
        }
        Deque<String> parts = new ArrayDeque<>();
        long rest = seconds;
        for (int i = 0; i < UNITS.length && rest > 0; i++) {
            if (i < UNIT_SIZES.length) {
                parts.addFirst(rest % UNIT_SIZES[i] + UNITS[i]);
                rest /= UNIT_SIZES[i];
            } else {
                parts.addFirst(rest + UNITS[i]);
            }
        }
        return String.join(" ", parts);
    }

    /**
     * Storm sends latencies and capacity as strings with three decimals; a missing value reads "0".
     * Locale.ROOT keeps the decimal point a point whatever the JVM's locale.
     */
    public static String decimal(Double value) {
        return value == null ? "0" : String.format(Locale.ROOT, "%.3f", value);
    }

    /** Executor id as the UI names it: "[firstTask-lastTask]". */
    public static String executorId(long firstTask, long lastTask) {
        return "[" + firstTask + "-" + lastTask + "]";
    }
}
