package io.nonstopstorm.wire;

import java.util.Optional;

/**
 * The one rule for executor spans {@code [start, end]} in documents that come from outside the JVM
 * (worker metrics documents, plan znodes, node plan store lines). Pure. A span is valid only if
 * {@code 1 <= start <= end} (or, where a format allows it, Storm's system executor {@code [-1,-1]}) and
 * it covers at most {@value #MAX_TASKS} tasks; the spans of one document cover at most
 * {@value #MAX_TASKS} tasks in all. Checked on {@code long}s before any cast or loop, so a forged
 * {@code end = 2^31-1} is refused instead of iterated. Readers that know the topology's executors also
 * refuse spans that are not among them ({@link #UNKNOWN_EXECUTOR}).
 *
 * <p>One home for the JVM side: the scheduling, migration, grouping and metrics modules use this class (the
 * metrics jar in extlib carries the wire classes to every daemon and worker). The same rule is in
 * pycontrol/executor_spans.py; the shared vectors in tests/vectors/documents keep the two equal. Reasons
 * start with their code.
 */
public final class ExecutorSpans {

    /** Most tasks a span, or all spans of one document, may cover (Storm topologies have far fewer). */
    public static final long MAX_TASKS = 100_000;

    public static final String BAD_SPAN = "bad_span";
    public static final String SPAN_TOO_LARGE = "span_too_large";
    public static final String TOO_MANY_TASKS = "too_many_tasks";
    public static final String UNKNOWN_EXECUTOR = "unknown_executor";

    private ExecutorSpans() {
    }

    /** Why {@code [start, end]} is not a valid span, or empty. */
    public static Optional<String> check(long start, long end, boolean systemAllowed) {
        if (systemAllowed && start == -1 && end == -1) {
            return Optional.empty();
        }
        if (start < 1 || end < start) {
            return Optional.of(BAD_SPAN + ": executor [" + start + "," + end + "] is not a span 1 <= start <= end");
        }
        if (end - start + 1 > MAX_TASKS) {
            return Optional.of(SPAN_TOO_LARGE + ": executor [" + start + "," + end + "] covers " + (end - start + 1)
                               + " tasks, more than " + MAX_TASKS);
        }
        return Optional.empty();
    }

    /**
     * Reads an executor id text in one of the {@code accepted} spellings and checks it by this rule, on the
     * bounds as written (a forged {@code [1,4294967297]} is {@value #SPAN_TOO_LARGE}, not a wrapped int).
     *
     * @throws IllegalArgumentException naming the spelling problem, or the rule's reason (starting with its code)
     */
    public static ExecutorId parse(String text, boolean systemAllowed, ExecutorId.Spelling... accepted) {
        ExecutorId.Bounds b = ExecutorId.bounds(text, accepted);
        Optional<String> bad = check(b.start(), b.end(), systemAllowed);
        if (bad.isPresent()) {
            throw new IllegalArgumentException(bad.get());
        }
        return new ExecutorId((int) b.start(), (int) b.end());
    }

    /** Tasks of a span already checked (the system executor counts as one). */
    public static long tasks(long start, long end) {
        return end - start + 1;
    }

    /** Why a document whose spans cover {@code tasks} tasks in all is refused, or empty. */
    public static Optional<String> checkTotal(long tasks) {
        return tasks > MAX_TASKS
               ? Optional.of(TOO_MANY_TASKS + ": the executors cover " + tasks + " tasks, more than " + MAX_TASKS)
               : Optional.empty();
    }

    /** The reason for a span that is valid but not one of the topology's executors. */
    public static String unknown(long start, long end, String topology) {
        return UNKNOWN_EXECUTOR + ": executor [" + start + "," + end + "] is not an executor of " + topology;
    }
}
