package io.nonstopstorm.workloads.measure;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * Appends per-second stats as JSON lines to {@code series-<component>-<task>.jsonl}. Append mode, so a
 * restarted worker continues the same file; one flush per second keeps a reader at most a second
 * behind. I/O failures are reported once and then ignored: measuring must never stop the workload.
 */
public final class SeriesFile implements AutoCloseable {
    public static final String PREFIX = "series-";

    private final String component;
    private final int task;
    private final Path path;
    private BufferedWriter out;
    private String lastError;

    public SeriesFile(Path dir, String component, int task) {
        this.component = component;
        this.task = task;
        this.path = dir.resolve(PREFIX + MeasureDir.safe(component) + "-" + task + ".jsonl");
    }

    public Path path() {
        return path;
    }

    /** Appends the lines; returns an error message the first time writing fails, else null. */
    public String append(List<SecondStats> seconds) {
        if (seconds.isEmpty()) {
            return null;
        }
        try {
            if (out == null) {
                out = Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            }
            for (SecondStats s : seconds) {
                out.write(JSONValue.toJSONString(s.toMap(component, task)));
                out.write('\n');
            }
            out.flush();
            return null;
        } catch (IOException e) {
            String msg = "cannot write " + path + ": " + e;
            boolean first = !msg.equals(lastError);
            lastError = msg;
            return first ? msg : null;
        }
    }

    @Override
    public void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // Nothing left to report to: the worker is shutting down.
            }
            out = null;
        }
    }
}
