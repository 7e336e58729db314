package io.nonstopstorm.ui;

import static io.nonstopstorm.ui.Fixtures.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ComponentAggregateStats;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.generated.TopologyStats;
import org.junit.jupiter.api.Test;

class TopologyViewsTest {

    private static final long NOW = 1_700_000_000L;
    private final Clock clock = Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC);
    private final TopologyViews views = new TopologyViews(UiSettings.defaults("2.8.3"), clock);

    private TopologyPageInfo page() {
        TopologyPageInfo p = new TopologyPageInfo("wc-1-100");
        p.set_name("wc");
        p.set_status("ACTIVE");
        p.set_uptime_secs(610);
        p.set_num_tasks(6);
        p.set_num_workers(2);
        p.set_num_executors(5);
        p.set_topology_conf("{\"topology.message.timeout.secs\": 30, \"topology.workers\": 2, "
            + "\"storm.zookeeper.topology.auth.payload\": \"topo:secret\"}");
        TopologyStats stats = new TopologyStats();
        // Deliberately out of display order.
        stats.set_window_to_emitted(new HashMap<>(Map.of(":all-time", 900L, "600", 300L)));
        stats.set_window_to_transferred(new HashMap<>(Map.of(":all-time", 800L, "600", 200L)));
        stats.set_window_to_acked(new HashMap<>(Map.of(":all-time", 700L, "600", 100L)));
        stats.set_window_to_failed(new HashMap<>(Map.of(":all-time", 2L)));
        stats.set_window_to_complete_latencies_ms(new HashMap<>(Map.of(":all-time", 12.5, "600", 1.25)));
        p.set_topology_stats(stats);
        ComponentAggregateStats spout = Fixtures.spoutStats(Fixtures.common(2, 2, 300, 300, 100, 1), 4.5);
        spout.set_last_error(Fixtures.error("x".repeat(250), (int) NOW - 42, "host-a", 6700));
        p.set_id_to_spout_agg_stats(new HashMap<>(Map.of("words", spout)));
        p.set_id_to_bolt_agg_stats(new HashMap<>(Map.of(
            "split", Fixtures.boltStats(Fixtures.common(2, 3, 500, 500, 400, 0), 0.25, 0.5, 410, 0.8125),
            "count", Fixtures.boltStats(Fixtures.common(1, 1, 0, 0, 390, 0), 0.1, 0.2, 390, 0.01))));
        p.set_workers(List.of(Fixtures.worker("sup-1", "host-a", 6700, "wc-1-100", Map.of("words", 2L, "split", 1L))));
        return p;
    }

    @Test
    void topLevelFieldsComeFromThePage() {
        Map<String, Object> m = views.topologyPage(page(), "600");
        assertEquals("wc-1-100", m.get("id"));
        assertEquals("wc", m.get("name"));
        assertEquals("ACTIVE", m.get("status"));
        assertEquals(2, m.get("workersTotal"));
        assertEquals(5, m.get("executorsTotal"));
        assertEquals(6, m.get("tasksTotal"));
        assertEquals("10m 10s", m.get("uptime"));
        assertEquals("600", m.get("window"));
        assertEquals("10m 0s", m.get("windowHint"));
        assertEquals(30, m.get("msgTimeout"));
        assertEquals(false, m.get("debug"));
        @SuppressWarnings("unchecked")
        Map<String, Object> conf = (Map<String, Object>) m.get("configuration");
        assertEquals(2, conf.get("topology.workers"));
        assertEquals("*****", conf.get("storm.zookeeper.topology.auth.payload"));
    }

    @Test
    void topologyStatsListsEachWindowShortestFirst() {
        List<Map<String, Object>> stats = rows(views.topologyPage(page(), ":all-time"), "topologyStats");
        assertEquals(List.of("600", ":all-time"), stats.stream().map(s -> s.get("window")).toList());
        Map<String, Object> recent = stats.get(0);
        assertEquals("10m 0s", recent.get("windowPretty"));
        assertEquals(300L, recent.get("emitted"));
        assertEquals(200L, recent.get("transferred"));
        assertEquals(100L, recent.get("acked"));
        assertEquals(0L, recent.get("failed"));
        assertEquals("1.250", recent.get("completeLatency"));
        assertEquals("All time", stats.get(1).get("windowPretty"));
        assertEquals(2L, stats.get(1).get("failed"));
    }

    @Test
    void spoutsCarryCountersLatencyAndLastError() {
        List<Map<String, Object>> spouts = rows(views.topologyPage(page(), "600"), "spouts");
        Map<String, Object> s = spouts.get(0);
        assertEquals("words", s.get("spoutId"));
        assertEquals(2, s.get("executors"));
        assertEquals(300L, s.get("emitted"));
        assertEquals(100L, s.get("acked"));
        assertEquals(1L, s.get("failed"));
        assertEquals("4.500", s.get("completeLatency"));
        assertEquals(200, ((String) s.get("lastError")).length());
        assertEquals("host-a", s.get("errorHost"));
        assertEquals(6700, s.get("errorPort"));
        assertEquals(42L, s.get("errorLapsedSecs"));
        assertEquals("http://host-a:8000/api/v1/log?file=wc-1-100%2F6700%2Fworker.log", s.get("errorWorkerLogLink"));
    }

    @Test
    void boltsAreSortedAndCarryExecuteFigures() {
        List<Map<String, Object>> bolts = rows(views.topologyPage(page(), "600"), "bolts");
        assertEquals(List.of("count", "split"), bolts.stream().map(b -> b.get("boltId")).toList());
        Map<String, Object> split = bolts.get(1);
        assertEquals(2, split.get("executors"));
        assertEquals(3, split.get("tasks"));
        assertEquals(500L, split.get("transferred"));
        assertEquals("0.813", split.get("capacity"));
        assertEquals("0.250", split.get("executeLatency"));
        assertEquals("0.500", split.get("processLatency"));
        assertEquals(410L, split.get("executed"));
        assertEquals("", split.get("lastError"));
        assertNull(split.get("errorLapsedSecs"));
    }

    @Test
    void workersListHostPortAndTasks() {
        List<Map<String, Object>> workers = rows(views.topologyPage(page(), "600"), "workers");
        Map<String, Object> w = workers.get(0);
        assertEquals("host-a", w.get("host"));
        assertEquals(6700, w.get("port"));
        assertEquals("sup-1", w.get("supervisorId"));
        assertEquals(Map.of("split", 1L, "words", 2L), w.get("componentNumTasks"));
        assertEquals(3, w.get("executorsTotal"));
        assertEquals("1m 30s", w.get("uptime"));
    }

    @Test
    void pageBeforeFirstHeartbeatStillMaps() {
        TopologyPageInfo bare = new TopologyPageInfo("fresh-1-1");
        Map<String, Object> m = views.topologyPage(bare, ":all-time");
        assertEquals(List.of(), m.get("topologyStats"));
        assertEquals(List.of(), m.get("spouts"));
        assertEquals(List.of(), m.get("workers"));
        assertNull(m.get("msgTimeout"));
    }
}
