package io.nonstopstorm.grouping.storm;

import org.apache.storm.shade.net.minidev.json.JSONValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Minimal worker metrics documents (the fields CG reads, plus a field it must ignore) for tests. */
final class LoadDocuments {
    private LoadDocuments() {
    }

    /**
     * Window {@code seq} of one worker process (pid) with one single-task executor per entry of
     * {@code busyByTask}, each executing 100 tuples/s with an empty queue (so utilisation = busy).
     */
    static String document(long pid, long seq, long endMs, double seconds, String component,
                           Map<Integer, Double> busyByTask) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", "nonstop.metrics.worker");
        doc.put("version", 1);
        doc.put("topology_id", "topo-1");
        doc.put("worker", Map.of("host", "127.0.0.11", "port", 6700, "pid", pid));
        doc.put("window", Map.of("end_ms", endMs, "seconds", seconds, "seq", seq, "period_s", 2));
        List<Object> executors = new ArrayList<>();
        busyByTask.forEach((task, busy) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("id", List.of(task, task));
            e.put("component", component);
            e.put("tasks", List.of(task));
            e.put("queue_length", 0);
            e.put("executed_per_s", 100.0);
            e.put("busy", busy);
            executors.add(e);
        });
        executors.add(Map.of("id", List.of(1, 1), "component", "spout", "tasks", List.of(1), "busy", 0.0,
            "executed_per_s", 0.0));
        doc.put("executors", executors);
        doc.put("some_future_field", Map.of("x", 1));
        return JSONValue.toJSONString(doc);
    }
}
