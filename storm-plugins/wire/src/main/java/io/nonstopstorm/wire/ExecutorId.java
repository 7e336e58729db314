package io.nonstopstorm.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An executor as Storm names it: the inclusive range of task ids it runs. The one executor id of the
 * suite's JVM code.
 *
 * <p>Spellings. On the wire (plan keys, decisions, logs) an executor is {@code [start,end]}: no spaces,
 * decimal integers without leading zeros; {@link #toString()} writes it and {@link #parse} reads only it.
 * Storm's UI shows {@code [start-end]}; {@link #parseUi} reads that, for the REST and UI boundary only.
 * Both parsers accept Storm's task ids ({@code 1 <= start <= end <= 2^31-1}) and Storm's system executor
 * {@code [-1,-1]}. Readers of documents from outside the JVM that must report which span rule a text
 * broke read its bounds with {@link #bounds} and check them with {@link ExecutorSpans} before narrowing.
 */
public record ExecutorId(int start, int end) implements Comparable<ExecutorId> {

    /** Storm's system executor: every worker has it, it never moves. */
    public static final ExecutorId SYSTEM = new ExecutorId(-1, -1);

    /** How a text separates the bounds. */
    public enum Spelling {
        /** {@code [start,end]}: documents, plans, decisions, logs. */
        WIRE(','),
        /** {@code [start-end]}: Storm's UI. */
        UI('-');

        private final Pattern pattern;

        Spelling(char separator) {
            // Canonical integers only: no sign but a minus, no leading zeros, no spaces.
            String bound = "(0|-?[1-9][0-9]{0,18})";
            this.pattern = Pattern.compile("\\[" + bound + Pattern.quote(String.valueOf(separator)) + bound + "]");
        }
    }

    /** The bounds of an executor id text, before any range check. */
    public record Bounds(long start, long end) {
    }

    public ExecutorId {
        if (end < start) {
            throw new IllegalArgumentException("executor task range is empty: [" + start + "," + end + "]");
        }
    }

    /** An executor running exactly one task. */
    public static ExecutorId single(int task) {
        return new ExecutorId(task, task);
    }

    /** From Storm's {@code List<Long>} executor id {@code [start, end]}. */
    public static ExecutorId fromStorm(List<Long> stormId) {
        if (stormId == null || stormId.size() != 2) {
            throw new IllegalArgumentException("a Storm executor id is [start, end], got " + stormId);
        }
        return of(new Bounds(stormId.get(0), stormId.get(1)), String.valueOf(stormId));
    }

    /** Reads the wire spelling {@code [start,end]} and nothing else. */
    public static ExecutorId parse(String text) {
        return of(bounds(text, Spelling.WIRE), text);
    }

    /** Reads Storm's UI spelling {@code [start-end]}: for ids a person copied from the UI or typed into a REST call. */
    public static ExecutorId parseUi(String text) {
        return of(bounds(text, Spelling.UI), text);
    }

    /**
     * Reads {@code text} in one of the {@code accepted} spellings: for readers of documents whose writers
     * use different ones (the scheduler writes {@code [3,3]}, the controller Storm's UI {@code [3-3]}).
     */
    public static ExecutorId parse(String text, Spelling... accepted) {
        return of(bounds(text, accepted), text);
    }

    /**
     * The bounds of {@code text} in one of the {@code accepted} spellings, as {@code long}s and not yet range
     * checked (a reader reports a span rule violation with {@link ExecutorSpans} first).
     *
     * @throws IllegalArgumentException if the text is in none of them
     */
    public static Bounds bounds(String text, Spelling... accepted) {
        if (text != null) {
            for (Spelling s : accepted) {
                Matcher m = s.pattern.matcher(text);
                if (m.matches()) {
                    try {
                        return new Bounds(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("executor id '" + text + "': a bound is beyond 64 bits");
                    }
                }
            }
        }
        List<String> forms = new ArrayList<>();
        for (Spelling s : accepted) {
            forms.add(s == Spelling.WIRE ? "[start,end]" : "[start-end]");
        }
        throw new IllegalArgumentException("not an executor id (expected " + String.join(" or ", forms)
                                           + " without spaces): '" + text + "'");
    }

    private static ExecutorId of(Bounds b, String text) {
        if (b.start() == -1 && b.end() == -1) {
            return SYSTEM;
        }
        if (b.start() < 1) {
            throw new IllegalArgumentException("executor id '" + text + "': task ids start at 1 (only Storm's "
                                               + "system executor [-1,-1] is not positive)");
        }
        if (b.end() < b.start()) {
            throw new IllegalArgumentException("executor id '" + text + "': start is after end");
        }
        if (b.end() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("executor id '" + text + "': task id beyond " + Integer.MAX_VALUE);
        }
        return new ExecutorId((int) b.start(), (int) b.end());
    }

    /** Storm's {@code List<Long>} executor id. */
    public List<Long> toStorm() {
        return List.of((long) start, (long) end);
    }

    public boolean isSystem() {
        return start < 0;
    }

    public boolean contains(int task) {
        return task >= start && task <= end;
    }

    /** Number of tasks the executor runs. */
    public long taskCount() {
        return (long) end - start + 1;
    }

    public List<Integer> tasks() {
        List<Integer> out = new ArrayList<>();
        // long: an end of Integer.MAX_VALUE must not wrap around and loop forever
        for (long t = start; t <= end; t++) {
            out.add((int) t);
        }
        return out;
    }

    @Override
    public int compareTo(ExecutorId o) {
        int c = Integer.compare(start, o.start);
        return c != 0 ? c : Integer.compare(end, o.end);
    }

    /** The wire spelling {@code [start,end]}. */
    @Override
    public String toString() {
        return "[" + start + "," + end + "]";
    }

    /** Storm's UI spelling {@code [start-end]}. */
    public String toUiString() {
        return "[" + start + "-" + end + "]";
    }
}
