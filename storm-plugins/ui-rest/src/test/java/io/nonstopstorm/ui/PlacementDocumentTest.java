package io.nonstopstorm.ui;

import static io.nonstopstorm.ui.Fixtures.executor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;
import org.junit.jupiter.api.Test;

class PlacementDocumentTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static TopologyInfo topology(String id, String name, ExecutorSummary... executors) {
        return new TopologyInfo(id, name, 10, new ArrayList<>(List.of(executors)), "ACTIVE", new HashMap<>());
    }

    private static JsonNode json(Map<String, Object> doc) {
        return JSON.valueToTree(doc);
    }

    @Test
    void groupsExecutorsByNodeAndWorkerInOrder() {
        TopologyInfo wc = topology("wc-1-100", "wc",
            executor("split", 4, 4, "127.0.0.12", 37121, 5),
            executor("words", 1, 2, "127.0.0.11", 37102, 5),
            executor("split", 3, 3, "127.0.0.11", 37101, 5),
            executor("__acker", 5, 5, "127.0.0.11", 37101, 5));
        JsonNode doc = json(PlacementDocument.of(List.of(wc, topology("a-2-200", "a")), List.of(), null, 42));
        assertEquals(42, doc.get("generatedAtMs").asLong());
        assertEquals("a", doc.at("/topologies/0/name").asText(), "topologies in name order");
        JsonNode t = doc.at("/topologies/1");
        assertEquals("wc-1-100", t.get("id").asText());
        assertEquals("ACTIVE", t.get("status").asText());
        assertEquals("127.0.0.11", t.at("/nodes/0/host").asText());
        assertEquals("127.0.0.11:37101", t.at("/nodes/0/workers/0/slot").asText());
        assertEquals(37101, t.at("/nodes/0/workers/0/port").asInt());
        assertEquals("[3-3]", t.at("/nodes/0/workers/0/executors/0/id").asText());
        assertEquals("split", t.at("/nodes/0/workers/0/executors/0/component").asText());
        assertEquals("__acker", t.at("/nodes/0/workers/0/executors/1/component").asText());
        assertEquals("[1-2]", t.at("/nodes/0/workers/1/executors/0/id").asText());
        assertEquals("127.0.0.12:37121", t.at("/nodes/1/workers/0/slot").asText());
        assertEquals(0, doc.at("/topologies/0/nodes").size());
        assertEquals(0, doc.get("moves").size());
        assertNull(doc.get("movesUnavailable").textValue());
    }

    @Test
    void listsMovesAndWhyTheyMayBeIncomplete() {
        RecordedMoves.Move m = new RecordedMoves.Move("wc", "wc-1-100", 4, "[3-3]", "127.0.0.11:37101",
            "127.0.0.12:37121", "hot pair", "controller", 400L, 10_400);
        JsonNode doc = json(PlacementDocument.of(List.of(), List.of(m), "ZooKeeper (h:2181) is not reachable", 1));
        assertEquals(JSON.createObjectNode().put("topology", "wc").put("topologyId", "wc-1-100").put("executor", "[3-3]")
            .put("from", "127.0.0.11:37101").put("to", "127.0.0.12:37121").put("reason", "hot pair")
            .put("source", "controller").put("planToDecisionMs", 400L).put("decidedAtMs", 10_400L), doc.at("/moves/0"));
        assertEquals("ZooKeeper (h:2181) is not reachable", doc.get("movesUnavailable").asText());
    }

    @Test
    void markupInNamesStaysDataInTheJson() throws Exception {
        String evil = "<script>alert(1)</script><b>x</b>";
        TopologyInfo t = topology("e-1-1", evil, executor(evil, 1, 1, "127.0.0.11", 37101, 1));
        String text = JSON.writeValueAsString(PlacementDocument.of(List.of(t), List.of(), null, 1));
        JsonNode back = JSON.readTree(text);
        assertEquals(evil, back.at("/topologies/0/name").asText());
        assertEquals(evil, back.at("/topologies/0/nodes/0/workers/0/executors/0/component").asText());
    }
}
