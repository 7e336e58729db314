package io.nonstopstorm.scheduling.metricsplane;

import io.nonstopstorm.scheduling.model.ExecutorId;
import io.nonstopstorm.wire.ExecutorSpans;
import io.nonstopstorm.scheduling.model.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.apache.storm.shade.net.minidev.json.parser.JSONParser;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * Reads a worker metrics document (schema {@code nonstop.metrics.worker}, version 1). Pure. A document
 * that is not JSON, has another schema or version, or lacks a field the schedulers use comes back as a
 * failure naming the first problem; fields it does not know are ignored (adding fields is not a version
 * change). Executor ids follow {@link ExecutorSpans} (user executors only: the documents leave Storm's out).
 */
public final class WorkerDocumentParser {

    public static final String SCHEMA = "nonstop.metrics.worker";
    public static final int VERSION = 1;

    private WorkerDocumentParser() {
    }

    /** A field that is missing or has the wrong type. */
    private static final class Bad extends RuntimeException {
        Bad(String message) {
            super(message, null, false, false);
        }
    }

    public static Outcome<WorkerDocument> parse(String json) {
        Object root;
        try {
            root = new JSONParser(JSONParser.MODE_RFC4627).parse(json == null ? "" : json);
        } catch (ParseException | RuntimeException e) {
            return Outcome.failure("not JSON: " + e.getMessage());
        }
        try {
            return Outcome.success(document(object(root, "$")));
        } catch (Bad e) {
            return Outcome.failure(e.getMessage());
        }
    }

    private static WorkerDocument document(Map<?, ?> d) {
        String schema = string(d, "schema", "$");
        if (!SCHEMA.equals(schema)) {
            throw new Bad("$.schema: expected " + SCHEMA + ", got " + schema);
        }
        long version = integer(d, "version", "$");
        if (version != VERSION) {
            throw new Bad("$.version: " + version + " is not supported (this reader knows " + VERSION + ")");
        }
        Map<?, ?> worker = object(field(d, "worker", "$"), "$.worker");
        Map<?, ?> window = object(field(d, "window", "$"), "$.window");
        return new WorkerDocument(string(d, "topology_id", "$"), string(worker, "host", "$.worker"),
                (int) integer(worker, "port", "$.worker"), integer(window, "end_ms", "$.window"),
                (int) integer(window, "period_s", "$.window"), integer(window, "seq", "$.window"),
                number(worker, "cpu_cores", "$.worker"), node(object(field(d, "node", "$"), "$.node")),
                executors(list(d, "executors", "$")), traffic(list(d, "traffic", "$")));
    }

    private static WorkerDocument.NodeSection node(Map<?, ?> n) {
        double rx = 0;
        double tx = 0;
        List<?> net = list(n, "net", "$.node");
        for (int i = 0; i < net.size(); i++) {
            String at = "$.node.net[" + i + "]";
            Map<?, ?> itf = object(net.get(i), at);
            // Loopback traffic never crosses a link: only the node's real interfaces count as network use.
            if (!"lo".equals(string(itf, "interface", at))) {
                rx += number(itf, "rx_bytes_per_s", at).orElseThrow(() -> new Bad(at + ".rx_bytes_per_s: must not be null"));
                tx += number(itf, "tx_bytes_per_s", at).orElseThrow(() -> new Bad(at + ".tx_bytes_per_s: must not be null"));
            }
        }
        return new WorkerDocument.NodeSection((int) integer(n, "cpu_count", "$.node"), number(n, "cpu_mhz", "$.node"),
                number(n, "cpu_busy_cores", "$.node"), Math.max(rx, tx));
    }

    private static List<WorkerDocument.ExecutorCpu> executors(List<?> items) {
        List<WorkerDocument.ExecutorCpu> out = new ArrayList<>();
        long tasks = 0;
        for (int i = 0; i < items.size(); i++) {
            String at = "$.executors[" + i + "]";
            Map<?, ?> e = object(items.get(i), at);
            List<?> id = list(e, "id", at);
            if (id.size() != 2 || !(id.get(0) instanceof Integer || id.get(0) instanceof Long)
                || !(id.get(1) instanceof Integer || id.get(1) instanceof Long)) {
                throw new Bad(at + ".id: expected [start, end], got " + id);
            }
            long s = ((Number) id.get(0)).longValue();
            long t = ((Number) id.get(1)).longValue();
            // Before anything iterates the span: a forged end of 2^31-1 must not run a loop on Nimbus.
            Optional<String> bad = ExecutorSpans.check(s, t, false);
            if (bad.isPresent()) {
                throw new Bad(at + ".id: " + bad.get());
            }
            tasks += ExecutorSpans.tasks(s, t);
            OptionalDouble thread = number(e, "cpu_cores", at);
            OptionalDouble children = e.containsKey("child_cpu_cores") ? number(e, "child_cpu_cores", at) : OptionalDouble.of(0);
            // A known thread with unknown children counts the thread only: a lower bound beats no figure.
            OptionalDouble cores = thread.isPresent() ? OptionalDouble.of(thread.getAsDouble() + children.orElse(0))
                                                      : OptionalDouble.empty();
            // Only OTD reads it: a document without it has no queue figure rather than failing the other readers.
            OptionalLong queue = OptionalLong.empty();
            if (e.containsKey("queue_length") && e.get("queue_length") != null) {
                queue = OptionalLong.of(nonNegativeInteger(e, "queue_length", at));
            }
            out.add(new WorkerDocument.ExecutorCpu(new ExecutorId((int) s, (int) t),
                    string(e, "component", at), cores, children.orElse(0), queue));
        }
        ExecutorSpans.checkTotal(tasks).ifPresent(over -> {
            throw new Bad("$.executors: " + over);
        });
        return out;
    }

    private static List<WorkerDocument.TaskFlow> traffic(List<?> items) {
        List<WorkerDocument.TaskFlow> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String at = "$.traffic[" + i + "]";
            Map<?, ?> f = object(items.get(i), at);
            out.add(new WorkerDocument.TaskFlow((int) integer(f, "src_task", at), (int) integer(f, "dst_task", at),
                    number(f, "tuples_per_s", at).orElseThrow(() -> new Bad(at + ".tuples_per_s: must not be null"))));
        }
        return out;
    }

    private static Map<?, ?> object(Object o, String at) {
        if (!(o instanceof Map<?, ?> m)) {
            throw new Bad(at + ": expected an object");
        }
        return m;
    }

    private static Object field(Map<?, ?> m, String key, String at) {
        if (!m.containsKey(key)) {
            throw new Bad(at + "." + key + ": missing");
        }
        return m.get(key);
    }

    private static String string(Map<?, ?> m, String key, String at) {
        if (!(field(m, key, at) instanceof String s) || s.isEmpty()) {
            throw new Bad(at + "." + key + ": expected a non-empty string");
        }
        return s;
    }

    private static long integer(Map<?, ?> m, String key, String at) {
        Object v = field(m, key, at);
        if (!(v instanceof Integer || v instanceof Long)) {
            throw new Bad(at + "." + key + ": expected an integer, got " + v);
        }
        return ((Number) v).longValue();
    }

    private static long nonNegativeInteger(Map<?, ?> m, String key, String at) {
        long v = integer(m, key, at);
        if (v < 0) {
            throw new Bad(at + "." + key + ": must be >= 0, got " + v);
        }
        return v;
    }

    /** A finite non-negative number, or empty for JSON null. */
    private static OptionalDouble number(Map<?, ?> m, String key, String at) {
        Object v = field(m, key, at);
        if (v == null) {
            return OptionalDouble.empty();
        }
        if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue()) || n.doubleValue() < 0) {
            throw new Bad(at + "." + key + ": expected a finite non-negative number, got " + v);
        }
        return OptionalDouble.of(n.doubleValue());
    }

    private static List<?> list(Map<?, ?> m, String key, String at) {
        if (!(field(m, key, at) instanceof List<?> l)) {
            throw new Bad(at + "." + key + ": expected a list");
        }
        return l;
    }
}
