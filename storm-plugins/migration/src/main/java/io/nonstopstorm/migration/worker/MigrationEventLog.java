package io.nonstopstorm.migration.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * One JSON line per migration step of a worker (reconcile, routing switch, executor stopped), written
 * at once: the worker's log4j output is buffered, and benchmarks and tests need exact timestamps of
 * when a plan took effect. Migration steps are rare, so the file stays small.
 */
public final class MigrationEventLog {
    private final Path file;
    private final LongSupplier clockMs;

    public MigrationEventLog(Path file, LongSupplier clockMs) {
        this.file = file;
        this.clockMs = clockMs;
    }

    public Path file() {
        return file;
    }

    /** Appends {@code {"t_ms": now, "event": event, ...fields}}; never throws (a lost line only costs a measurement). */
    public synchronized void append(String event, Map<String, ?> fields) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("t_ms", clockMs.getAsLong());
        line.put("event", event);
        line.putAll(fields);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, JSONValue.toJSONString(line) + "\n", StandardCharsets.UTF_8,
                              StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException ignored) {
            // measurement only
        }
    }
}
