package io.nonstopstorm.ui;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.generated.BoltAggregateStats;
import org.apache.storm.generated.CommonAggregateStats;
import org.apache.storm.generated.ComponentAggregateStats;
import org.apache.storm.generated.SpoutAggregateStats;

/**
 * Reads Nimbus' aggregate statistics without tripping over unset thrift parts (a union holding the other
 * branch, or stats absent before the first heartbeat) and maps the shared counters to the UI's keys.
 */
final class AggStats {

    private AggStats() {
    }

    static CommonAggregateStats common(ComponentAggregateStats s) {
        return s != null && s.is_set_common_stats() ? s.get_common_stats() : new CommonAggregateStats();
    }

    static BoltAggregateStats bolt(ComponentAggregateStats s) {
        return s != null && s.is_set_specific_stats() && s.get_specific_stats().is_set_bolt()
            ? s.get_specific_stats().get_bolt() : new BoltAggregateStats();
    }

    static SpoutAggregateStats spout(ComponentAggregateStats s) {
        return s != null && s.is_set_specific_stats() && s.get_specific_stats().is_set_spout()
            ? s.get_specific_stats().get_spout() : new SpoutAggregateStats();
    }

    /** emitted/transferred/acked/failed. */
    static Map<String, Object> counters(CommonAggregateStats c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("emitted", c.get_emitted());
        m.put("transferred", c.get_transferred());
        m.put("acked", c.get_acked());
        m.put("failed", c.get_failed());
        return m;
    }

    /** executors/tasks, the counters, and the requested resources when Nimbus reports them. */
    static Map<String, Object> componentTotals(CommonAggregateStats c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("executors", c.get_num_executors());
        m.put("tasks", c.get_num_tasks());
        m.putAll(counters(c));
        if (c.is_set_resources_map()) {
            m.put("requestedMemOnHeap", Resources.onHeap(c.get_resources_map()));
            m.put("requestedMemOffHeap", Resources.offHeap(c.get_resources_map()));
            m.put("requestedCpu", Resources.cpu(c.get_resources_map()));
        }
        return m;
    }

    /** executeLatency/executed/processLatency/capacity of a bolt. */
    static Map<String, Object> boltFigures(BoltAggregateStats b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("executeLatency", Pretty.decimal(b.get_execute_latency_ms()));
        m.put("executed", b.get_executed());
        m.put("processLatency", Pretty.decimal(b.get_process_latency_ms()));
        m.put("capacity", Pretty.decimal(b.get_capacity()));
        return m;
    }
}
