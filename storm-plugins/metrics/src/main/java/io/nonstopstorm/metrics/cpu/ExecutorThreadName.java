package io.nonstopstorm.metrics.cpu;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Storm names each executor's thread {@code Thread-<n>-<component>-executor[<start>, <end>]}
 * (Executor.execute via Utils.asyncLoop); the name is the one link from a JVM thread to its executor.
 */
public record ExecutorThreadName(String component, ExecutorId executor) {
    private static final Pattern NAME = Pattern.compile("^Thread-\\d+-(.+)-executor\\[(-?\\d+), (-?\\d+)\\]$");

    public static Optional<ExecutorThreadName> parse(String threadName) {
        if (threadName == null) {
            return Optional.empty();
        }
        Matcher m = NAME.matcher(threadName);
        if (!m.matches()) {
            return Optional.empty();
        }
        int start = Integer.parseInt(m.group(2));
        int end = Integer.parseInt(m.group(3));
        if (end < start) {
            return Optional.empty();
        }
        return Optional.of(new ExecutorThreadName(m.group(1), new ExecutorId(start, end)));
    }
}
