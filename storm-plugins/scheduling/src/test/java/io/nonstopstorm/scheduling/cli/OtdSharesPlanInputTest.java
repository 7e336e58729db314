package io.nonstopstorm.scheduling.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nonstopstorm.scheduling.offline.OtdRound;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The shared share vector through the controller's path: each case written as the PLAN-INPUT document
 * pycontrol's snapshot sends (raw loads, node CPUs and busy cores), read, and derived by the offline round.
 */
class OtdSharesPlanInputTest {
    private static final Path CASES = Path.of("../../tests/vectors/otd_shares/cases.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everySharedCaseGivesTheExpectedSharesFromAPlanInputDocument() throws IOException {
        for (JsonNode c : JSON.readTree(CASES.toFile()).get("cases")) {
            String name = c.get("name").asText();
            PlanningInput in = PlanInputReader.read(document(c).toString()).orElseThrow();
            Map<String, Double> got = OtdRound.cpuShares(in.topologies().get(0), in.cluster());
            c.get("shares").fields().forEachRemaining(e ->
                    assertEquals(e.getValue().asDouble(), got.get(e.getKey()), 1e-4, name + ": " + e.getKey()));
            c.get("workers").fieldNames().forEachRemaining(w -> {
                if (c.get("nodes").get(w.substring(0, w.lastIndexOf(':'))).get("cpu_count").isNull()) {
                    assertFalse(got.containsKey(w), name + ": " + w + " is on a node of unknown size");
                }
            });
        }
    }

    private static ObjectNode document(JsonNode c) {
        boolean countBackground = c.get("count_background").asBoolean();
        Map<String, ArrayNode> ports = new TreeMap<>();
        ObjectNode placement = JSON.createObjectNode();
        ObjectNode workerLoad = JSON.createObjectNode();
        ArrayNode executors = JSON.createArrayNode();
        c.get("workers").fields().forEachRemaining(e -> {
            String w = e.getKey();
            ports.computeIfAbsent(w.substring(0, w.lastIndexOf(':')), k -> JSON.createArrayNode())
                    .add(Integer.parseInt(w.substring(w.lastIndexOf(':') + 1)));
            placement.set(w, e.getValue().get("executors"));
            e.getValue().get("executors").forEach(x -> executors.addObject().put("id", x.asText()).put("component", "c"));
            if (!e.getValue().get("load_cores").isNull()) {
                workerLoad.putObject(w).put("load", e.getValue().get("load_cores").asDouble());
            }
        });
        ObjectNode doc = JSON.createObjectNode();
        ArrayNode nodes = doc.putObject("cluster").putArray("nodes");
        ports.forEach((id, p) -> {
            JsonNode measured = c.get("nodes").get(id);
            ObjectNode n = nodes.addObject().put("id", id);
            n.set("ports", p);
            if (!measured.get("cpu_count").isNull()) {
                n.put("cpu_capacity", measured.get("cpu_count").asDouble());
                if (countBackground && !measured.get("busy_cores").isNull()) {
                    n.put("cpu_busy", measured.get("busy_cores").asDouble());
                }
            }
        });
        ObjectNode t = doc.putObject("topology").put("id", "t").put("workers", placement.size());
        t.putArray("components").addObject().put("name", "c");
        t.set("executors", executors);
        t.set("current_placement", placement);
        t.set("worker_load", workerLoad);
        return doc;
    }
}
