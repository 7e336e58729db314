package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.signal.TaskLoad;
import io.nonstopstorm.wire.ExecutorSpans;
import org.apache.storm.shade.net.minidev.json.JSONValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the per-task load of one component out of a worker metrics document (schema
 * {@code nonstop.metrics.worker} version 1, storm-plugins/metrics/SCHEMA.md): for every executor of the
 * component, each of its tasks gets the executor's {@code busy}, tuples executed in the window and queue
 * length (its tasks share one thread and one queue). Fields this
 * reader does not use are ignored, as the schema asks; a document of another schema or version, or one
 * that lacks a field used here, is an {@link IllegalArgumentException} naming the problem; so is an
 * executor id outside {@link ExecutorSpans} or a task outside its executor.
 */
public final class MetricsDocumentLoads {
    static final String SCHEMA = "nonstop.metrics.worker";
    static final int VERSION = 1;

    private MetricsDocumentLoads() {
    }

    public static List<TaskLoad> parse(String json, String component) {
        Object root;
        try {
            root = JSONValue.parseWithException(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage());
        }
        Map<?, ?> doc = object(root, "$");
        if (!SCHEMA.equals(doc.get("schema"))) {
            throw new IllegalArgumentException("$.schema: expected " + SCHEMA + ", got " + doc.get("schema"));
        }
        if (number(doc, "version", "$").intValue() != VERSION) {
            throw new IllegalArgumentException("$.version: " + doc.get("version") + " is not supported (knows " + VERSION + ")");
        }
        long pid = number(object(doc.get("worker"), "$.worker"), "pid", "$.worker").longValue();
        Map<?, ?> window = object(doc.get("window"), "$.window");
        long endMs = number(window, "end_ms", "$.window").longValue();
        double seconds = number(window, "seconds", "$.window").doubleValue();
        long seq = number(window, "seq", "$.window").longValue();
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("$.window.seconds: must be positive, got " + seconds);
        }
        Object executors = doc.get("executors");
        if (!(executors instanceof List<?> list)) {
            throw new IllegalArgumentException("$.executors: expected a list");
        }
        List<TaskLoad> out = new ArrayList<>();
        long allTasks = 0;
        for (int i = 0; i < list.size(); i++) {
            String where = "$.executors[" + i + "]";
            Map<?, ?> e = object(list.get(i), where);
            long[] span = span(e, where);
            allTasks += ExecutorSpans.tasks(span[0], span[1]);
            if (!component.equals(e.get("component"))) {
                continue;
            }
            Double busy = e.get("busy") == null ? null : number(e, "busy", where).doubleValue();
            long executed = Math.round(number(e, "executed_per_s", where).doubleValue() * seconds);
            Integer queue = e.get("queue_length") == null ? null : number(e, "queue_length", where).intValue();
            if (!(e.get("tasks") instanceof List<?> tasks)) {
                throw new IllegalArgumentException(where + ".tasks: expected a list");
            }
            for (Object task : tasks) {
                if (!(task instanceof Integer || task instanceof Long) || ((Number) task).longValue() < span[0]
                    || ((Number) task).longValue() > span[1]) {
                    throw new IllegalArgumentException(where + ".tasks: expected task ids of the executor "
                                                       + e.get("id") + ", got " + task);
                }
                Number n = (Number) task;
                out.add(new TaskLoad(n.intValue(), pid, seq, endMs, seconds, busy, executed, queue));
            }
        }
        ExecutorSpans.checkTotal(allTasks).ifPresent(over -> {
            throw new IllegalArgumentException("$.executors: " + over);
        });
        return out;
    }

    /** The executor's {@code [start, end]}, checked by {@link ExecutorSpans} before anything uses it. */
    private static long[] span(Map<?, ?> e, String where) {
        if (!(e.get("id") instanceof List<?> id) || id.size() != 2
            || !(id.get(0) instanceof Integer || id.get(0) instanceof Long)
            || !(id.get(1) instanceof Integer || id.get(1) instanceof Long)) {
            throw new IllegalArgumentException(where + ".id: expected [start, end], got " + e.get("id"));
        }
        long start = ((Number) id.get(0)).longValue();
        long end = ((Number) id.get(1)).longValue();
        ExecutorSpans.check(start, end, false).ifPresent(bad -> {
            throw new IllegalArgumentException(where + ".id: " + bad);
        });
        return new long[] {start, end};
    }

    private static Map<?, ?> object(Object value, String where) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(where + ": expected an object");
        }
        return map;
    }

    private static Number number(Map<?, ?> object, String key, String where) {
        Object v = object.get(key);
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException(where + "." + key + ": expected a number, got " + v);
        }
        return n;
    }
}
