package io.nonstopstorm.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.apache.storm.Config;
import org.apache.storm.generated.ComponentAggregateStats;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.generated.TopologyStats;

/** JSON-ready view of one topology's page (/api/v1/topology/{id}). */
public final class TopologyViews {

    /** Storm's UI shows this sampling percentage when debugging is off. */
    static final double DEFAULT_SAMPLING_PCT = 10;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final UiSettings settings;
    private final WorkerViews workers;
    private final ErrorViews errors;

    public TopologyViews(UiSettings settings, Clock clock) {
        this.settings = settings;
        this.workers = new WorkerViews(settings);
        this.errors = new ErrorViews(new LogLinks(settings), clock);
    }

    public Map<String, Object> topologyPage(TopologyPageInfo p, String window) {
        String id = p.get_id();
        Map<String, Object> conf = parseConf(p.get_topology_conf());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("encodedId", LogLinks.encode(id));
        m.put("owner", p.get_owner());
        m.put("user", null);
        m.put("name", p.get_name());
        m.put("status", p.get_status());
        m.put("uptime", Pretty.duration(p.get_uptime_secs()));
        m.put("uptimeSeconds", p.get_uptime_secs());
        m.put("tasksTotal", p.get_num_tasks());
        m.put("workersTotal", p.get_num_workers());
        m.put("executorsTotal", p.get_num_executors());
        m.put("schedulerInfo", p.get_sched_status());
        m.put("window", window);
        m.put("windowHint", StatWindow.hint(window));
        m.put("msgTimeout", conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS));
        m.put("schedulerDisplayResource", settings.schedulerDisplayResource());
        m.put("replicationCount", p.get_replication_count());
        boolean debug = p.is_set_debug_options() && p.get_debug_options().is_enable();
        m.put("debug", debug);
        m.put("samplingPct", debug ? p.get_debug_options().get_samplingpct() : DEFAULT_SAMPLING_PCT);
        m.put("requestedMemOnHeap", p.get_requested_memonheap());
        m.put("requestedMemOffHeap", p.get_requested_memoffheap());
        m.put("requestedTotalMem", p.get_requested_memonheap() + p.get_requested_memoffheap());
        m.put("requestedCpu", p.get_requested_cpu());
        m.put("assignedMemOnHeap", p.get_assigned_memonheap());
        m.put("assignedMemOffHeap", p.get_assigned_memoffheap());
        m.put("assignedTotalMem", p.get_assigned_memonheap() + p.get_assigned_memoffheap());
        m.put("assignedCpu", p.get_assigned_cpu());
        m.put("topologyVersion", p.get_topology_version());
        m.put("stormVersion", p.get_storm_version());
        m.put("topologyStats", topologyStats(p.get_topology_stats()));
        m.put("workers", workers.workers(Thrift.list(p.get_workers())));
        m.put("spouts", spouts(p));
        m.put("bolts", bolts(p));
        m.put("configuration", SecretKeys.redact(conf));
        return m;
    }

    /** One entry per window Nimbus reports, shortest window first. */
    List<Map<String, Object>> topologyStats(TopologyStats s) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (s == null) {
            return out;
        }
        Map<String, Long> emitted = Thrift.map(s.get_window_to_emitted());
        Map<String, Long> transferred = Thrift.map(s.get_window_to_transferred());
        Map<String, Double> latency = Thrift.map(s.get_window_to_complete_latencies_ms());
        Map<String, Long> acked = Thrift.map(s.get_window_to_acked());
        Map<String, Long> failed = Thrift.map(s.get_window_to_failed());
        Set<String> windows = new LinkedHashSet<>(emitted.keySet());
        windows.addAll(acked.keySet());
        List<String> ordered = new ArrayList<>(windows);
        ordered.sort(Comparator.comparingInt(StatWindow::order).thenComparing(Comparator.naturalOrder()));
        for (String w : ordered) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("windowPretty", StatWindow.hint(w));
            m.put("window", w);
            m.put("emitted", emitted.getOrDefault(w, 0L));
            m.put("transferred", transferred.getOrDefault(w, 0L));
            m.put("completeLatency", Pretty.decimal(latency.get(w)));
            m.put("acked", acked.getOrDefault(w, 0L));
            m.put("failed", failed.getOrDefault(w, 0L));
            out.add(m);
        }
        return out;
    }

    private List<Map<String, Object>> spouts(TopologyPageInfo p) {
        return components(p, p.get_id_to_spout_agg_stats(), "spoutId", "encodedSpoutId",
            (s, m) -> m.put("completeLatency", Pretty.decimal(AggStats.spout(s).get_complete_latency_ms())));
    }

    private List<Map<String, Object>> bolts(TopologyPageInfo p) {
        return components(p, p.get_id_to_bolt_agg_stats(), "boltId", "encodedBoltId",
            (s, m) -> m.putAll(AggStats.boltFigures(AggStats.bolt(s))));
    }

    /** One row per component, by id: its id, totals, the figures of its kind, and its last error. */
    private List<Map<String, Object>> components(TopologyPageInfo p, Map<String, ComponentAggregateStats> stats,
                                                 String idKey, String encodedIdKey,
                                                 BiConsumer<ComponentAggregateStats, Map<String, Object>> figures) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, ComponentAggregateStats> e : sorted(stats).entrySet()) {
            ComponentAggregateStats s = e.getValue();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(idKey, e.getKey());
            m.put(encodedIdKey, LogLinks.encode(e.getKey()));
            m.putAll(AggStats.componentTotals(AggStats.common(s)));
            figures.accept(s, m);
            m.putAll(errors.lastError(s.get_last_error(), p.get_id()));
            out.add(m);
        }
        return out;
    }

    private static Map<String, ComponentAggregateStats> sorted(Map<String, ComponentAggregateStats> m) {
        return new TreeMap<>(Thrift.map(m));
    }

    /** The topology's effective configuration, which Nimbus sends as a JSON string. */
    static Map<String, Object> parseConf(String json) {
        if (json == null || json.isBlank()) {
            return new LinkedHashMap<>();
        }
        try {
            return new TreeMap<>(JSON.readValue(json, new TypeReference<Map<String, Object>>() { }));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Nimbus sent a topology configuration that is not a JSON object", e);
        }
    }
}
