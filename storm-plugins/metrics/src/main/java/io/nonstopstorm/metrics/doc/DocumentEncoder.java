package io.nonstopstorm.metrics.doc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/** MetricsDocument -> JSON text (json-smart, shaded in Storm's worker classpath); key order is stable. */
public final class DocumentEncoder {
    private DocumentEncoder() {
    }

    public static String encode(MetricsDocument d) {
        return JSONValue.toJSONString(toTree(d));
    }

    public static Map<String, Object> toTree(MetricsDocument d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", MetricsDocument.SCHEMA);
        m.put("version", MetricsDocument.VERSION);
        m.put("topology_id", d.topologyId());
        m.put("worker", worker(d.worker()));
        m.put("window", window(d.window()));
        m.put("node", node(d.node()));
        List<Object> execs = new ArrayList<>();
        for (MetricsDocument.Executor e : d.executors()) {
            execs.add(executor(e));
        }
        m.put("executors", execs);
        List<Object> pairs = new ArrayList<>();
        for (MetricsDocument.Pair p : d.traffic()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("src_task", p.srcTask());
            pm.put("dst_task", p.dstTask());
            pm.put("tuples", p.tuples());
            pm.put("tuples_per_s", p.tuplesPerS());
            pairs.add(pm);
        }
        m.put("traffic", pairs);
        List<Object> comps = new ArrayList<>();
        for (MetricsDocument.Component c : d.components()) {
            comps.add(component(c));
        }
        m.put("components", comps);
        return m;
    }

    private static Map<String, Object> worker(MetricsDocument.Worker w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("host", w.host());
        m.put("port", w.port());
        m.put("pid", w.pid());
        m.put("started_at_ms", w.startedAtMs());
        m.put("cpu_cores", w.cpuCores());
        return m;
    }

    private static Map<String, Object> window(MetricsDocument.Window w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("end_ms", w.endMs());
        m.put("seconds", w.seconds());
        m.put("seq", w.seq());
        m.put("period_s", w.periodS());
        return m;
    }

    private static Map<String, Object> node(MetricsDocument.Node n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu_count", n.cpuCount());
        m.put("cpu_mhz", n.cpuMhz());
        m.put("cpu_busy_cores", n.cpuBusyCores());
        List<Object> net = new ArrayList<>();
        for (MetricsDocument.Net i : n.net()) {
            Map<String, Object> im = new LinkedHashMap<>();
            im.put("interface", i.iface());
            im.put("rx_bytes_per_s", i.rxBytesPerS());
            im.put("tx_bytes_per_s", i.txBytesPerS());
            net.add(im);
        }
        m.put("net", net);
        return m;
    }

    private static Map<String, Object> executor(MetricsDocument.Executor e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", List.of(e.id().start(), e.id().end()));
        m.put("component", e.component());
        m.put("tasks", e.tasks());
        m.put("cpu_cores", e.cpuCores());
        m.put("child_processes", e.childProcesses());
        m.put("child_cpu_cores", e.childCpuCores());
        m.put("queue_length", e.queueLength());
        m.put("queue_capacity", e.queueCapacity());
        m.put("emitted_per_s", e.emittedPerS());
        m.put("executed_per_s", e.executedPerS());
        m.put("busy", e.busy());
        if (e.state() != null) {
            Map<String, Object> st = new LinkedHashMap<>();
            st.put("bytes", e.state().bytes());
            st.put("over_limit", e.state().overLimit());
            st.put("measured_at_ms", e.state().measuredAtMs());
            m.put("state", st);
        }
        return m;
    }

    private static Map<String, Object> component(MetricsDocument.Component c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id());
        m.put("type", c.type());
        m.put("tasks", c.tasks());
        List<Object> inputs = new ArrayList<>();
        for (MetricsDocument.Input i : c.inputs()) {
            Map<String, Object> im = new LinkedHashMap<>();
            im.put("component", i.component());
            im.put("stream", i.stream());
            im.put("grouping", i.grouping());
            im.put("fields", i.fields());
            inputs.add(im);
        }
        m.put("inputs", inputs);
        return m;
    }
}
