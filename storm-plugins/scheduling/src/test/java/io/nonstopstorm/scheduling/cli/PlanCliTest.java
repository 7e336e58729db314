package io.nonstopstorm.scheduling.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nonstopstorm.scheduling.core.InterNodeTraffic;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanCliTest {

    private static final String EXAMPLE = "examples/wordcount.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PlanCli.run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Placement placementOf(JsonNode topology) {
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> slots = topology.get("placement").fields();
        while (slots.hasNext()) {
            Map.Entry<String, JsonNode> s = slots.next();
            String[] parts = s.getKey().split(":");
            for (JsonNode e : s.getValue()) {
                ExecutorId id = PlanInputReader.executorId(e, "test");
                assertEquals(null, slotOf.put(id, new SlotId(parts[0], Integer.parseInt(parts[1]))), "placed twice: " + id);
            }
        }
        return Placement.of(slotOf);
    }

    @Test
    void everyModelSchedulerPlansTheExampleAndReportsConsistentMetrics() throws IOException {
        PlanningInput input = PlanInputReader.read(Files.readString(Path.of(EXAMPLE))).orElseThrow();
        var workload = input.topologies().get(0);
        Map<String, Double> interNode = new HashMap<>();
        for (String s : List.of("aniello-offline", "aniello-online", "aniello-online-refined", "dsm", "sam", "elastic",
                "otd", "optimum")) {
            Run r = run("--scheduler", s, "--input", EXAMPLE, "--json");
            assertEquals(PlanCli.OK, r.code(), s + ": " + r.err() + r.out());
            JsonNode root = JSON.readTree(r.out());
            JsonNode t = root.get("topologies").get(0);
            Placement p = placementOf(t);
            assertEquals(workload.topology().executorIdSet(), p.executors(), s + " places every executor once");
            assertEquals(InterNodeTraffic.of(workload.traffic(), p), t.get("inter_node_traffic").asDouble(), 1e-3, s);
            assertEquals(p.usedSlots().size(), t.get("slots_used").asInt(), s);
            assertEquals(workload.current().movedComparedTo(p).size(), t.get("moved").asInt(), s);
            double planned = 0;
            for (JsonNode n : root.get("nodes")) {
                planned += n.get("cpu_planned").asDouble();
            }
            assertEquals(workload.loads().sum(workload.topology().executorIds()), planned, 1e-3, s + " node loads add up");
            interNode.put(s, t.get("inter_node_traffic").asDouble());
            if (s.equals("otd")) {
                assertTrue(t.get("moved").asInt() <= 1, "one OTD round moves at most one executor");
                assertTrue(t.get("notes").get(0).asText().startsWith("otd case"));
            }
        }
        double optimum = interNode.get("optimum");
        interNode.forEach((s, v) -> assertTrue(optimum <= v + 1e-6, s + " beats the exact optimum: " + v + " < " + optimum));
    }

    @Test
    void tableOutputListsEverySlotAndNode() {
        Run r = run("-s", "aniello-online", "-i", EXAMPLE);
        assertEquals(PlanCli.OK, r.code(), r.err());
        assertTrue(r.out().startsWith("aniello-online: 1 topology planned in "), r.out());
        for (String node : List.of("node1", "node2", "node3")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(node + " ")), "node row for " + node + "\n" + r.out());
        }
    }

    @Test
    void badArgumentsAndInputExitWithOneErrorLine(@TempDir Path dir) throws IOException {
        Run unknown = run("-s", "nope", "-i", EXAMPLE);
        assertEquals(PlanCli.BAD_INPUT, unknown.code());
        assertTrue(unknown.err().startsWith("error: unknown scheduler 'nope' (known: aniello-offline"), unknown.err());

        Run missing = run("-s", "dsm", "-i", dir.resolve("absent.json").toString());
        assertEquals(PlanCli.BAD_INPUT, missing.code());
        assertTrue(missing.err().contains("does not exist"));

        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, Files.readString(Path.of(EXAMPLE)).replace("\"to\": \"[8,8]\"", "\"to\": \"[80,80]\""));
        Run bad = run("-s", "dsm", "-i", broken.toString());
        assertEquals(PlanCli.BAD_INPUT, bad.code());
        assertEquals(1, bad.err().lines().count(), bad.err());
        assertTrue(bad.err().contains("executor [80,80] is not an executor of topology wordcount"), bad.err());
        assertTrue(bad.out().isEmpty());

        assertEquals(PlanCli.BAD_INPUT, run("--scheduler", "dsm").code());
        assertEquals(PlanCli.BAD_INPUT, run("--bogus").code());
    }

    @Test
    void optimumRefusesLargeInstancesWithAClearReason(@TempDir Path dir) throws IOException {
        Path small = dir.resolve("limit.json");
        Files.writeString(small, Files.readString(Path.of(EXAMPLE))
                .replace("\"otd\": {", "\"optimum\": {\"max_executors\": 5}, \"otd\": {"));
        Run r = run("-s", "optimum", "-i", small.toString(), "--json");
        assertEquals(PlanCli.NO_PLACEMENT, r.code());
        JsonNode root = JSON.readTree(r.out());
        assertFalse(root.get("ok").asBoolean());
        assertTrue(root.get("error").asText().contains("8 executors, the limit is 5 (params.optimum.max_executors)"),
                root.get("error").asText());
    }

    @Test
    void listNamesEveryScheduler() {
        Run r = run("--list");
        assertEquals(PlanCli.OK, r.code());
        for (String s : List.of("aniello-offline", "aniello-online", "aniello-online-refined", "dsm", "sam", "elastic",
                "otd", "storm-default", "storm-ras", "optimum")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(s + " ")), s);
        }
    }
}
