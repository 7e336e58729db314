package io.nonstopstorm.migration.plan;

import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ExecutorSpans;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.JSONParser;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * The plan store's JSON: small, stable, readable with any tool.
 * <pre>
 * {"format": 1, "version": 7, "written_at_ms": 1700000000000,
 *  "ports": {"37101": {"topology": "relay-1-1700000000", "executors": [[3,3],[5,6]]}},
 *  "topologies": {"relay-1-1700000000": "9f2c..."}}
 * </pre>
 * Uses the JSON library already inside storm-shaded-deps, which every Storm JVM has.
 */
public final class PlanCodec {
    public static final int FORMAT = 1;

    private PlanCodec() {
    }

    public static String encode(NodePlan plan) {
        Map<String, Object> ports = new LinkedHashMap<>();
        for (Map.Entry<Integer, PortPlan> e : plan.ports().entrySet()) {
            List<List<Integer>> execs = new ArrayList<>();
            for (ExecutorId r : e.getValue().executors()) {
                execs.add(List.of(r.start(), r.end()));
            }
            Map<String, Object> port = new LinkedHashMap<>();
            port.put("topology", e.getValue().topologyId());
            port.put("executors", execs);
            ports.put(Integer.toString(e.getKey()), port);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("version", plan.version());
        root.put("written_at_ms", plan.writtenAtMs());
        root.put("ports", ports);
        root.put("topologies", new LinkedHashMap<>(plan.topologyFingerprints()));
        return JSONValue.toJSONString(root);
    }

    public static NodePlan decode(String json) throws PlanFormatException {
        Object parsed;
        try {
            parsed = new JSONParser(JSONParser.MODE_RFC4627).parse(json);
        } catch (ParseException | RuntimeException e) {
            throw new PlanFormatException("plan is not valid JSON: " + e.getMessage(), e);
        }
        Map<?, ?> root = asMap(parsed, "plan");
        long format = asLong(root.get("format"), "format");
        if (format != FORMAT) {
            throw new PlanFormatException("unsupported plan format " + format + " (this agent reads " + FORMAT + ")");
        }
        long version = asLong(root.get("version"), "version");
        long writtenAt = root.containsKey("written_at_ms") ? asLong(root.get("written_at_ms"), "written_at_ms") : 0;
        SortedMap<Integer, PortPlan> ports = new TreeMap<>();
        long tasks = 0;
        for (Map.Entry<?, ?> e : asMap(root.get("ports"), "ports").entrySet()) {
            String where = "ports." + e.getKey();
            int port;
            try {
                port = Integer.parseInt(e.getKey().toString());
            } catch (NumberFormatException ex) {
                throw new PlanFormatException(where + ": port is not a number");
            }
            Map<?, ?> p = asMap(e.getValue(), where);
            Object topo = p.get("topology");
            if (!(topo instanceof String) || ((String) topo).isBlank()) {
                throw new PlanFormatException(where + ".topology: missing");
            }
            SortedSet<ExecutorId> execs = new TreeSet<>();
            for (Object x : asList(p.get("executors"), where + ".executors")) {
                List<?> pair = asList(x, where + ".executors[]");
                if (pair.size() != 2) {
                    throw new PlanFormatException(where + ".executors: expected [start,end], got " + pair);
                }
                long start = asLong(pair.get(0), where);
                long end = asLong(pair.get(1), where);
                // Checked as longs before the cast: a line must not make the worker allocate per bogus task.
                Optional<String> bad = ExecutorSpans.check(start, end, true);
                if (bad.isPresent()) {
                    throw new PlanFormatException(where + ".executors: " + bad.get());
                }
                tasks += ExecutorSpans.tasks(start, end);
                execs.add(new ExecutorId((int) start, (int) end));
            }
            ports.put(port, new PortPlan((String) topo, execs));
        }
        Optional<String> over = ExecutorSpans.checkTotal(tasks);
        if (over.isPresent()) {
            throw new PlanFormatException("ports: " + over.get());
        }
        SortedMap<String, String> fps = new TreeMap<>();
        Object topologies = root.get("topologies");
        if (topologies != null) {
            for (Map.Entry<?, ?> e : asMap(topologies, "topologies").entrySet()) {
                fps.put(e.getKey().toString(), String.valueOf(e.getValue()));
            }
        }
        try {
            return new NodePlan(version, writtenAt, ports, fps);
        } catch (IllegalArgumentException e) {
            throw new PlanFormatException(e.getMessage());
        }
    }

    private static Map<?, ?> asMap(Object o, String where) throws PlanFormatException {
        if (o instanceof Map<?, ?> m) {
            return m;
        }
        throw new PlanFormatException(where + ": expected an object");
    }

    private static List<?> asList(Object o, String where) throws PlanFormatException {
        if (o instanceof List<?> l) {
            return l;
        }
        throw new PlanFormatException(where + ": expected an array");
    }

    private static long asLong(Object o, String where) throws PlanFormatException {
        if (o instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return n.longValue();
        }
        throw new PlanFormatException(where + ": expected a whole number, got " + o);
    }
}
