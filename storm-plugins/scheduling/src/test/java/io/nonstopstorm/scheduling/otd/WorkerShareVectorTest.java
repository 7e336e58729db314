package io.nonstopstorm.scheduling.otd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class WorkerShareVectorTest {
    private static final Path CASES = Path.of("../../tests/vectors/otd_shares/cases.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theSaturatedShareIsTheSharedOne() throws IOException {
        assertEquals(JSON.readTree(CASES.toFile()).get("saturated_share").asDouble(), WorkerShare.SATURATED);
    }

    @Test
    void everySharedCaseGivesTheExpectedShares() throws IOException {
        JsonNode cases = JSON.readTree(CASES.toFile()).get("cases");
        assertTrue(cases.size() >= 10);
        for (JsonNode c : cases) {
            assertShares(c, shares(c));
        }
    }

    /** Fails with the case's name unless {@code got} has exactly the case's workers and shares (to 1e-4). */
    static void assertShares(JsonNode c, Map<String, Double> got) {
        Map<String, Double> want = new TreeMap<>();
        c.get("shares").fields().forEachRemaining(e -> want.put(e.getKey(), e.getValue().asDouble()));
        String name = c.get("name").asText();
        assertEquals(want.keySet(), got.keySet(), name);
        want.forEach((w, share) -> assertEquals(share, got.get(w), 1e-4, name + ": " + w));
    }

    static Map<String, Double> shares(JsonNode c) {
        boolean countBackground = c.get("count_background").asBoolean();
        Map<String, String> nodeOfWorker = new TreeMap<>();
        Map<String, Double> loads = new TreeMap<>();
        c.get("workers").fields().forEachRemaining(e -> {
            nodeOfWorker.put(e.getKey(), e.getKey().substring(0, e.getKey().lastIndexOf(':')));
            if (!e.getValue().get("load_cores").isNull()) {
                loads.put(e.getKey(), e.getValue().get("load_cores").asDouble());
            }
        });
        Map<String, WorkerShare.NodeCpu> nodes = new TreeMap<>();
        c.get("nodes").fields().forEachRemaining(e -> {
            JsonNode n = e.getValue();
            if (!n.get("cpu_count").isNull()) {
                nodes.put(e.getKey(), new WorkerShare.NodeCpu(n.get("cpu_count").asDouble(),
                        countBackground && !n.get("busy_cores").isNull()
                                ? OptionalDouble.of(n.get("busy_cores").asDouble()) : OptionalDouble.empty()));
            }
        });
        return WorkerShare.fromMeasurements(nodeOfWorker, loads, nodes);
    }
}
