package io.nonstopstorm.ui;

import static io.nonstopstorm.ui.Fixtures.listOf;
import static io.nonstopstorm.ui.Fixtures.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.ComponentType;
import org.apache.storm.generated.GlobalStreamId;
import org.junit.jupiter.api.Test;

class ComponentViewsTest {

    private static final long NOW = 1_700_000_000L;
    private final ComponentViews views = new ComponentViews(UiSettings.defaults("2.8.3"),
        Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC));

    private ComponentPageInfo boltPage() {
        ComponentPageInfo p = new ComponentPageInfo("split", ComponentType.BOLT);
        p.set_topology_id("wc-1-100");
        p.set_topology_name("wc");
        p.set_topology_status("ACTIVE");
        p.set_num_executors(2);
        p.set_num_tasks(4);
        p.set_resources_map(new HashMap<>(Map.of("onheap.memory.mb", 128.0, "cpu.pcore.percent", 10.0)));
        p.set_window_to_stats(new HashMap<>(Map.of(
            ":all-time", Fixtures.boltStats(Fixtures.common(2, 4, 1000, 900, 800, 3), 0.5, 0.75, 810, 0.4),
            "600", Fixtures.boltStats(Fixtures.common(2, 4, 100, 90, 80, 0), 0.4, 0.7, 81, 0.3))));
        p.set_gsid_to_input_stats(new HashMap<>(Map.of(new GlobalStreamId("words", "default"),
            Fixtures.boltStats(Fixtures.common(0, 0, 0, 0, 800, 3), 0.5, 0.75, 810, 0))));
        p.set_sid_to_output_stats(new HashMap<>(Map.of("default",
            Fixtures.boltStats(Fixtures.common(0, 0, 1000, 900, 0, 0), 0, 0, 0, 0))));
        // Executors arrive in no particular order; the view lists them by first task.
        p.set_exec_stats(listOf(
            Fixtures.executorStats(Fixtures.executor("split", 3, 4, "host-b", 6701, 70),
                Fixtures.boltStats(Fixtures.common(1, 2, 600, 550, 500, 2), 0.6, 0.8, 505, 0.55)),
            Fixtures.executorStats(Fixtures.executor("split", 1, 2, "host-a", 6700, 3700),
                Fixtures.boltStats(Fixtures.common(1, 2, 400, 350, 300, 1), 0.4, 0.7, 305, 0.25))));
        p.set_errors(listOf(Fixtures.error("late", (int) NOW - 5, "host-b", 6701),
            Fixtures.error("early", (int) NOW - 50, "host-a", 6700)));
        return p;
    }

    @Test
    void boltPageHeader() {
        Map<String, Object> m = views.componentPage(boltPage(), "wc-1-100", "split", "600");
        assertEquals("split", m.get("id"));
        assertEquals("wc", m.get("name"));
        assertEquals("wc-1-100", m.get("topologyId"));
        assertEquals("ACTIVE", m.get("topologyStatus"));
        assertEquals("bolt", m.get("componentType"));
        assertEquals(2, m.get("executors"));
        assertEquals(4, m.get("tasks"));
        assertEquals(128.0, m.get("requestedMemOnHeap"));
        assertEquals(10.0, m.get("requestedCpu"));
        assertEquals("10m 0s", m.get("windowHint"));
        assertFalse(m.containsKey("spoutSummary"));
    }

    @Test
    void boltExecutorStatsAreOrderedByTaskAndCarryBoltFigures() {
        List<Map<String, Object>> execs = rows(views.componentPage(boltPage(), "wc-1-100", "split", "600"), "executorStats");
        assertEquals(List.of("[1-2]", "[3-4]"), execs.stream().map(e -> e.get("id")).toList());
        Map<String, Object> first = execs.get(0);
        assertEquals("host-a", first.get("host"));
        assertEquals(6700, first.get("port"));
        assertEquals("1h 1m 40s", first.get("uptime"));
        assertEquals(3700, first.get("uptimeSeconds"));
        assertEquals(400L, first.get("emitted"));
        assertEquals(350L, first.get("transferred"));
        assertEquals(300L, first.get("acked"));
        assertEquals(1L, first.get("failed"));
        assertEquals(305L, first.get("executed"));
        assertEquals("0.250", first.get("capacity"));
        assertEquals("0.400", first.get("executeLatency"));
        assertEquals("0.700", first.get("processLatency"));
        assertEquals("http://host-a:8000/api/v1/log?file=wc-1-100%2F6700%2Fworker.log", first.get("workerLogLink"));
    }

    @Test
    void boltWindowInputAndOutputStats() {
        Map<String, Object> m = views.componentPage(boltPage(), "wc-1-100", "split", ":all-time");
        List<Map<String, Object>> windows = rows(m, "boltStats");
        assertEquals(List.of("600", ":all-time"), windows.stream().map(w -> w.get("window")).toList());
        assertEquals(810L, windows.get(1).get("executed"));
        assertEquals("0.400", windows.get(1).get("capacity"));
        List<Map<String, Object>> inputs = rows(m, "inputStats");
        assertEquals("words", inputs.get(0).get("component"));
        assertEquals("default", inputs.get(0).get("stream"));
        assertEquals(810L, inputs.get(0).get("executed"));
        assertEquals(3L, inputs.get(0).get("failed"));
        List<Map<String, Object>> outputs = rows(m, "outputStats");
        assertEquals(Map.of("stream", "default", "emitted", 1000L, "transferred", 900L), outputs.get(0));
    }

    @Test
    void componentErrorsOldestFirstWithLapsedSeconds() {
        List<Map<String, Object>> errors = rows(views.componentPage(boltPage(), "wc-1-100", "split", "600"), "componentErrors");
        assertEquals(List.of("early", "late"), errors.stream().map(e -> e.get("error")).toList());
        assertEquals(50L, errors.get(0).get("errorLapsedSecs"));
        assertEquals(6700, errors.get(0).get("errorPort"));
    }

    @Test
    void spoutPageHasSummaryAndCompleteLatency() {
        ComponentPageInfo p = new ComponentPageInfo("words", ComponentType.SPOUT);
        p.set_topology_name("wc");
        p.set_num_executors(1);
        p.set_num_tasks(1);
        p.set_window_to_stats(new HashMap<>(Map.of("600", Fixtures.spoutStats(Fixtures.common(1, 1, 50, 50, 40, 1), 7.25))));
        p.set_sid_to_output_stats(new HashMap<>(Map.of("default", Fixtures.spoutStats(Fixtures.common(0, 0, 50, 50, 40, 1), 7.25))));
        p.set_exec_stats(listOf(Fixtures.executorStats(Fixtures.executor("words", 5, 5, "host-a", 6700, 10),
            Fixtures.spoutStats(Fixtures.common(1, 1, 50, 50, 40, 1), 7.25))));
        Map<String, Object> m = views.componentPage(p, "wc-1-100", "words", "600");
        assertEquals("spout", m.get("componentType"));
        Map<String, Object> summary = rows(m, "spoutSummary").get(0);
        assertEquals("7.250", summary.get("completeLatency"));
        assertEquals(40L, summary.get("acked"));
        Map<String, Object> exec = rows(m, "executorStats").get(0);
        assertEquals("[5-5]", exec.get("id"));
        assertEquals("7.250", exec.get("completeLatency"));
        assertFalse(exec.containsKey("capacity"));
        assertFalse(m.containsKey("inputStats"));
    }
}
