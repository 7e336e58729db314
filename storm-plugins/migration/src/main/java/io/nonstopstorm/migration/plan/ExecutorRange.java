package io.nonstopstorm.migration.plan;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An executor as Storm names it: the inclusive task range {@code [start, end]}. */
public record ExecutorRange(int start, int end) implements Comparable<ExecutorRange> {

    /** Storm's system executor: every worker has it, it never moves. */
    public static final ExecutorRange SYSTEM = new ExecutorRange(-1, -1);

    private static final Pattern TEXT = Pattern.compile("\\s*\\[?\\s*(-?\\d+)\\s*[,-]\\s*(-?\\d+)\\s*]?\\s*");

    public ExecutorRange {
        if (end < start) {
            throw new IllegalArgumentException("executor task range is empty: [" + start + "," + end + "]");
        }
    }

    /** Parses "[3,5]", "[3-5]", "3,5" or "3-5" (the UI writes "[3-5]"). */
    public static ExecutorRange parse(String text) {
        Matcher m = TEXT.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not an executor id (expected [start,end]): '" + text + "'");
        }
        return new ExecutorRange(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** From Storm's {@code List<Long>} executor id. */
    public static ExecutorRange of(List<Long> stormId) {
        return new ExecutorRange(stormId.get(0).intValue(), stormId.get(stormId.size() - 1).intValue());
    }

    /** Storm's {@code List<Long>} executor id. */
    public List<Long> toStormId() {
        return List.of((long) start, (long) end);
    }

    public boolean isSystem() {
        return start < 0;
    }

    @Override
    public int compareTo(ExecutorRange o) {
        int c = Integer.compare(start, o.start);
        return c != 0 ? c : Integer.compare(end, o.end);
    }

    @Override
    public String toString() {
        return "[" + start + "," + end + "]";
    }
}
