package io.nonstopstorm.migration.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * One JSON line per migration step of a worker (reconcile, routing switch, executor stopped), written
 * at once: the worker's log4j output is buffered, and benchmarks and tests need exact timestamps of
 * when a plan took effect. Rotated by size: a line that would take the file past {@code maxBytes} first
 * renames it to {@code <file>.1} (replacing the previous one), so a worker's events never hold more than
 * about twice {@code maxBytes} on disk however long it lives.
 */
public final class MigrationEventLog {
    private final Path file;
    private final Path rotated;
    private final LongSupplier clockMs;
    private final long maxBytes;

    public MigrationEventLog(Path file, LongSupplier clockMs, long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("event log bound must be >= 1 byte, got " + maxBytes);
        }
        this.file = file;
        this.rotated = file.resolveSibling(file.getFileName() + ".1");
        this.clockMs = clockMs;
        this.maxBytes = maxBytes;
    }

    public Path file() {
        return file;
    }

    /** The previous file, once the log has rotated. */
    public Path rotatedFile() {
        return rotated;
    }

    /** Appends {@code {"t_ms": now, "event": event, ...fields}}; never throws (a lost line only costs a measurement). */
    public synchronized void append(String event, Map<String, ?> fields) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("t_ms", clockMs.getAsLong());
        line.put("event", event);
        line.putAll(fields);
        byte[] bytes = (JSONValue.toJSONString(line) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Files.createDirectories(file.getParent());
            if (currentSize() > 0 && currentSize() + bytes.length > maxBytes) {
                Files.move(file, rotated, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.write(file, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException ignored) {
            // measurement only
        }
    }

    private long currentSize() throws IOException {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }
}
