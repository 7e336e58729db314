package io.nonstopstorm.ui;

import static io.nonstopstorm.ui.Fixtures.listOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.apache.storm.generated.TopologyInfo;
import org.junit.jupiter.api.Test;

class WorkerViewsTest {

    @Test
    void hostPortListNamesEachWorkerOnce() {
        TopologyInfo info = new TopologyInfo("wc-1-100", "wc", 30, listOf(
            Fixtures.executor("split", 3, 3, "host-b", 6700, 1),
            Fixtures.executor("words", 1, 1, "host-a", 6701, 1),
            Fixtures.executor("split", 2, 2, "host-a", 6701, 1),
            Fixtures.executor("count", 4, 4, "host-a", 6700, 1)), "ACTIVE", Map.of());
        Map<String, Object> m = new WorkerViews(new UiSettings("2.8.3", false, 8000, 8443, false, List.of()))
            .hostPortList(info);
        assertEquals(List.of(Map.of("host", "host-a", "port", 6700), Map.of("host", "host-a", "port", 6701),
            Map.of("host", "host-b", "port", 6700)), m.get("hostPortList"));
        assertEquals(8443, m.get("logviewerPort"));
        assertEquals("https", m.get("logviewerScheme"));
    }
}
