package io.nonstopstorm.scheduling.metricsplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/** The shared metrics document fixture (tests/fixtures/metrics-document-v1.json), as is or edited. */
public final class MetricsFixture {

    private MetricsFixture() {
    }

    public static String json() {
        String dir = System.getProperty("nonstop.fixtures.dir", "../../tests/fixtures");
        try {
            return Files.readString(Path.of(dir, "metrics-document-v1.json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fixture with some change applied to its parsed form. */
    @SuppressWarnings("unchecked")
    public static String edited(Consumer<Map<String, Object>> change) {
        Map<String, Object> doc = (Map<String, Object>) JSONValue.parse(json());
        change.accept(doc);
        return JSONValue.toJSONString(doc);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> section(Map<String, Object> doc, String key) {
        return (Map<String, Object>) doc.get(key);
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> items(Map<String, Object> doc, String key) {
        return (List<Map<String, Object>>) doc.get(key);
    }

    /**
     * Another worker of the fixture's topology: host {@code host}, port {@code port}, window ending at
     * {@code endMs}, running executor [2,2] of "busy" (0.2 cores) that sends 50 tuples/s to task 3.
     */
    public static String secondWorker(String host, int port, long endMs, double busyCores) {
        return edited(d -> {
            section(d, "worker").put("host", host);
            section(d, "worker").put("port", port);
            section(d, "window").put("end_ms", endMs);
            section(d, "node").put("cpu_busy_cores", busyCores);
            d.put("executors", List.of(Map.of("id", List.of(2, 2), "component", "busy", "tasks", List.of(2),
                    "cpu_cores", 0.2, "child_processes", 0, "child_cpu_cores", 0.0, "queue_length", 0,
                    "queue_capacity", 32768, "emitted_per_s", 50.0, "executed_per_s", 80.0)));
            d.put("traffic", List.of(Map.of("src_task", 2, "dst_task", 3, "tuples", 250, "tuples_per_s", 50.0)));
        });
    }
}
