package io.nonstopstorm.ui;

import java.util.List;
import java.util.Optional;

/** The statistics windows Nimbus keeps ("600", "10800", "86400" seconds and ":all-time"). */
public final class StatWindow {

    public static final String ALL_TIME = ":all-time";
    /** Display order of the windows, shortest first, as the UI lists them. */
    public static final List<String> KNOWN = List.of("600", "10800", "86400", ALL_TIME);

    private StatWindow() {
    }

    /** The window named by a request parameter (absent means all time), or empty if Nimbus keeps no such window. */
    public static Optional<String> parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Optional.of(ALL_TIME);
        }
        return KNOWN.contains(raw) ? Optional.of(raw) : Optional.empty();
    }

    /** Human form of a window: "All time" or a duration such as "10m 0s". */
    public static String hint(String window) {
        if (ALL_TIME.equals(window)) {
            return "All time";
        }
        try {
            return Pretty.duration(Long.parseLong(window));
        } catch (NumberFormatException e) {
            return window;
        }
    }

    /** Sort key putting known windows in display order and unknown ones after them. */
    static int order(String window) {
        int i = KNOWN.indexOf(window);
        return i >= 0 ? i : KNOWN.size();
    }
}
