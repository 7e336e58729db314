package io.nonstopstorm.ui;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.generated.BoltAggregateStats;
import org.apache.storm.generated.CommonAggregateStats;
import org.apache.storm.generated.ComponentAggregateStats;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.ComponentType;
import org.apache.storm.generated.ExecutorAggregateStats;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;

/** JSON-ready view of one component's page (/api/v1/topology/{id}/component/{component}). */
public final class ComponentViews {

    private final UiSettings settings;
    private final LogLinks links;
    private final ErrorViews errors;

    public ComponentViews(UiSettings settings, Clock clock) {
        this.settings = settings;
        this.links = new LogLinks(settings);
        this.errors = new ErrorViews(links, clock);
    }

    public Map<String, Object> componentPage(ComponentPageInfo p, String topologyId, String componentId,
                                             String window) {
        boolean bolt = p.get_component_type() == ComponentType.BOLT;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("user", null);
        m.put("id", componentId);
        m.put("encodedId", LogLinks.encode(componentId));
        m.put("name", p.get_topology_name());
        m.put("executors", p.get_num_executors());
        m.put("tasks", p.get_num_tasks());
        Map<String, Double> resources = p.get_resources_map();
        m.put("requestedMemOnHeap", Resources.onHeap(resources));
        m.put("requestedMemOffHeap", Resources.offHeap(resources));
        m.put("requestedCpu", Resources.cpu(resources));
        m.put("schedulerDisplayResource", settings.schedulerDisplayResource());
        m.put("topologyId", topologyId);
        m.put("topologyStatus", p.get_topology_status());
        m.put("encodedTopologyId", LogLinks.encode(topologyId));
        m.put("window", window);
        m.put("componentType", bolt ? "bolt" : "spout");
        m.put("windowHint", StatWindow.hint(window));
        boolean debug = p.is_set_debug_options() && p.get_debug_options().is_enable();
        m.put("debug", debug);
        m.put("samplingPct", p.is_set_debug_options()
            ? p.get_debug_options().get_samplingpct() : TopologyViews.DEFAULT_SAMPLING_PCT);
        if (p.get_eventlog_host() != null && !p.get_eventlog_host().isEmpty()) {
            m.put("eventLogLink", links.eventLog(p.get_eventlog_host(), p.get_eventlog_port(), topologyId));
        }
        // This server offers no profiling endpoints, so it says so rather than echoing Storm's capability.
        m.put("profilingAndDebuggingCapable", false);
        m.put("profileActionEnabled", settings.profilerEnabled());
        m.put("profilerActive", List.of());
        if (bolt) {
            m.put("boltStats", windowStats(p, true));
            m.put("inputStats", inputStats(p));
        } else {
            m.put("spoutSummary", windowStats(p, false));
        }
        m.put("outputStats", outputStats(p, bolt));
        m.put("executorStats", executorStats(p, topologyId, bolt));
        m.put("componentErrors", errors.errors(Thrift.list(p.get_errors()), topologyId));
        return m;
    }

    private List<Map<String, Object>> windowStats(ComponentPageInfo p, boolean bolt) {
        List<String> windows = new ArrayList<>(Thrift.map(p.get_window_to_stats()).keySet());
        windows.sort(Comparator.comparingInt(StatWindow::order).thenComparing(Comparator.naturalOrder()));
        List<Map<String, Object>> out = new ArrayList<>();
        for (String w : windows) {
            ComponentAggregateStats s = p.get_window_to_stats().get(w);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("window", w);
            m.put("windowPretty", StatWindow.hint(w));
            m.putAll(AggStats.counters(AggStats.common(s)));
            if (bolt) {
                m.putAll(AggStats.boltFigures(AggStats.bolt(s)));
            } else {
                m.put("completeLatency", Pretty.decimal(AggStats.spout(s).get_complete_latency_ms()));
                String last = s.get_last_error() == null ? "" : String.valueOf(s.get_last_error().get_error());
                m.put("lastError", last.substring(0, Math.min(last.length(), ErrorViews.LAST_ERROR_CHARS)));
            }
            out.add(m);
        }
        return out;
    }

    private List<Map<String, Object>> inputStats(ComponentPageInfo p) {
        Map<String, Map<String, Object>> byStream = new TreeMap<>();
        for (Map.Entry<GlobalStreamId, ComponentAggregateStats> e : Thrift.map(p.get_gsid_to_input_stats()).entrySet()) {
            GlobalStreamId gsid = e.getKey();
            CommonAggregateStats c = AggStats.common(e.getValue());
            BoltAggregateStats b = AggStats.bolt(e.getValue());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("component", gsid.get_componentId());
            m.put("encodedComponentId", LogLinks.encode(gsid.get_componentId()));
            m.put("stream", gsid.get_streamId());
            m.put("executeLatency", Pretty.decimal(b.get_execute_latency_ms()));
            m.put("processLatency", Pretty.decimal(b.get_process_latency_ms()));
            m.put("executed", b.get_executed());
            m.put("acked", c.get_acked());
            m.put("failed", c.get_failed());
            byStream.put(gsid.get_componentId() + "\u0000" + gsid.get_streamId(), m);
        }
        return new ArrayList<>(byStream.values());
    }

    private List<Map<String, Object>> outputStats(ComponentPageInfo p, boolean bolt) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, ComponentAggregateStats> e : new TreeMap<>(Thrift.map(p.get_sid_to_output_stats())).entrySet()) {
            CommonAggregateStats c = AggStats.common(e.getValue());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("stream", e.getKey());
            m.put("emitted", c.get_emitted());
            m.put("transferred", c.get_transferred());
            if (!bolt) {
                m.put("completeLatency", Pretty.decimal(AggStats.spout(e.getValue()).get_complete_latency_ms()));
                m.put("acked", c.get_acked());
                m.put("failed", c.get_failed());
            }
            out.add(m);
        }
        return out;
    }

    private List<Map<String, Object>> executorStats(ComponentPageInfo p, String topologyId, boolean bolt) {
        List<ExecutorAggregateStats> execs = new ArrayList<>(Thrift.list(p.get_exec_stats()));
        execs.sort(Comparator.comparingInt(e -> firstTask(e.get_exec_summary())));
        List<Map<String, Object>> out = new ArrayList<>();
        for (ExecutorAggregateStats e : execs) {
            ExecutorSummary sum = e.get_exec_summary();
            ExecutorInfo info = sum.get_executor_info();
            ComponentAggregateStats s = e.get_stats();
            CommonAggregateStats c = AggStats.common(s);
            String id = Pretty.executorId(info.get_task_start(), info.get_task_end());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id);
            m.put("encodedId", LogLinks.encode(id));
            m.put("uptime", Pretty.duration(sum.get_uptime_secs()));
            m.put("uptimeSeconds", sum.get_uptime_secs());
            m.put("host", sum.get_host());
            m.put("port", sum.get_port());
            m.put("emitted", c.get_emitted());
            m.put("transferred", c.get_transferred());
            if (bolt) {
                m.putAll(AggStats.boltFigures(AggStats.bolt(s)));
            } else {
                m.put("completeLatency", Pretty.decimal(AggStats.spout(s).get_complete_latency_ms()));
            }
            m.put("acked", c.get_acked());
            m.put("failed", c.get_failed());
            m.put("workerLogLink", links.worker(sum.get_host(), sum.get_port(), topologyId));
            out.add(m);
        }
        return out;
    }

    private static int firstTask(ExecutorSummary s) {
        return s == null || s.get_executor_info() == null ? Integer.MAX_VALUE : s.get_executor_info().get_task_start();
    }
}
