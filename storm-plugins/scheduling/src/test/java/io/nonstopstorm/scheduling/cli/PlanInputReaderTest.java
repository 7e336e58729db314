package io.nonstopstorm.scheduling.cli;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.offline.OtdRound;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.TopologyWorkload;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanInputReaderTest {

    /** A minimal valid document; tests splice one broken piece into it. */
    private static String doc(String nodes, String topology) {
        return "{\"cluster\": {\"nodes\": [" + nodes + "]}, \"topology\": " + topology + "}";
    }

    private static final String TWO_NODES = "{\"id\": \"a\", \"slots\": 2, \"cpu_capacity\": 100},"
            + "{\"id\": \"b\", \"ports\": [7000], \"cpu_capacity\": 100}";

    private static String topology(String workers, String traffic) {
        return "{\"id\": \"t\", \"workers\": " + workers + ", \"components\": [{\"name\": \"s\", \"parallelism\": 2},"
                + "{\"name\": \"b\", \"parallelism\": 2}], \"edges\": [[\"s\", \"b\"]], \"traffic\": " + traffic + "}";
    }

    private static String failure(String json) {
        Outcome<PlanningInput> o = PlanInputReader.read(json);
        assertFalse(o.isSuccess(), "expected a failure for " + json);
        return o.reasonOrNull();
    }

    @Test
    void readsTheShippedExample() throws IOException {
        PlanningInput in = PlanInputReader.read(Files.readString(Path.of("examples/wordcount.json"))).orElseThrow();
        assertEquals(3, in.cluster().nodes().size());
        assertEquals(List.of(6700, 6701, 6702), in.cluster().nodes().get(2).ports(), "\"slots\": 3 means ports 6700..6702");
        assertEquals("someone-else", in.cluster().ownerOf(new SlotId("node3", 6702)).orElseThrow());
        assertEquals(1200, in.cluster().nodes().get(1).cpuBackground());
        assertEquals(4096, in.nodeMemoryMb().get("node1"));
        TopologyWorkload w = in.topologies().get(0);
        assertEquals(8, w.topology().executors().size());
        assertEquals("split", w.topology().componentOf(ExecutorId.single(3)), "tasks are numbered in component order");
        assertEquals(9600, w.traffic().total(), 1e-9);
        assertEquals(900, w.loads().of(ExecutorId.single(4)));
        assertEquals(new SlotId("node3", 6700), w.current().slotOf(ExecutorId.single(6)).orElseThrow());
        assertEquals(2160, w.workerReadings().get(new SlotId("node1", 6700)).load());
        assertEquals(0.45, OtdRound.cpuShares(w, in.cluster()).get("node1:6700"), 1e-12, "2160 MHz of node1's 4800");
        assertEquals(256, w.memoryMb().get("split"));
    }

    /** TWO_NODES with node a's CPU given as {@code cpuField}, the topology on a:6700 and a:6701, readings given. */
    private static String measured(String cpuField, String workerLoad) {
        String nodes = "{\"id\": \"a\", \"slots\": 2, \"cpu_capacity\": 4" + cpuField + "},"
                + "{\"id\": \"b\", \"ports\": [7000], \"cpu_capacity\": 4}";
        String t = "{\"id\": \"t\", \"workers\": 2, \"components\": [{\"name\": \"s\"}],"
                + "\"executors\": [{\"id\": 1, \"component\": \"s\"}, {\"id\": 2, \"component\": \"s\"}],"
                + "\"current_placement\": {\"a:6700\": [1], \"a:6701\": [2]}, \"worker_load\": " + workerLoad + "}";
        return doc(nodes, t);
    }

    @Test
    void aMeasuredBusyCpuLeavesWhatTheTopologysOwnWorkersDoNotUseAsBackground() {
        PlanningInput in = PlanInputReader.read(measured(", \"cpu_busy\": 2.5",
                "{\"a:6700\": {\"load\": 0.4, \"queue\": 3}, \"a:6701\": {\"load\": 0.1}}")).orElseThrow();
        assertEquals(2.0, in.cluster().node("a").orElseThrow().cpuBackground(), 1e-12, "2.5 busy - 0.5 ours");
        assertEquals(0.0, in.cluster().node("b").orElseThrow().cpuBackground());
        TopologyWorkload w = in.topologies().get(0);
        assertEquals(3, w.workerReadings().get(new SlotId("a", 6700)).queue());
        assertEquals(java.util.Map.of("a:6700", 0.4, "a:6701", 0.25), OtdRound.cpuShares(w, in.cluster()),
                "0.4 of 2 cores left / 2 workers; the lighter one counts as its node's 0.5 of 2");
        PlanningInput full = PlanInputReader.read(measured(", \"cpu_busy\": 9",
                "{\"a:6700\": {\"load\": 0.4}}")).orElseThrow();
        assertEquals(4.0, full.cluster().node("a").orElseThrow().cpuBackground(), "at most the capacity");
    }

    @Test
    void measuredFiguresAreValidatedWhereTheyEnter() {
        String both = failure(measured(", \"cpu_busy\": 1, \"cpu_background\": 1", "{}"));
        assertTrue(both.contains("cluster.nodes[0].cpu_busy") && both.contains("not both"), both);
        String unbounded = failure(measured("", "{}").replace("[7000], \"cpu_capacity\": 4}", "[7000], \"cpu_busy\": 1}"));
        assertTrue(unbounded.contains("cluster.nodes[1].cpu_busy") && unbounded.contains("cpu_capacity"), unbounded);
        assertTrue(failure(measured(", \"cpu_busy\": -1", "{}")).contains("must be >= 0"));
        String share = failure(measured("", "{\"a:6700\": {\"cpu\": 0.5}}"));
        assertTrue(share.contains("topology.worker_load.a:6700.cpu") && share.contains("load"), share);
        assertTrue(failure(measured("", "{\"a:6700\": {\"load\": -0.1}}")).contains("must be >= 0"));
        assertTrue(failure(measured("", "{\"a:6700\": {\"queue\": 1}}")).contains("missing required field 'load'"));
        assertTrue(failure(measured("", "{\"a:6700\": {\"load\": 1e400}}")).contains("finite"));
    }

    @Test
    void explicitExecutorsTakeTaskRangesInEitherSpelling() {
        String t = "{\"id\": \"t\", \"workers\": 2, \"components\": [{\"name\": \"s\"}, {\"name\": \"b\"}],"
                + "\"edges\": [[\"s\", \"b\"]], \"executors\": [{\"id\": \"[1,2]\", \"component\": \"s\"},"
                + "{\"id\": \"[3-4]\", \"component\": \"b\"}, {\"id\": 5, \"component\": \"b\"}],"
                + "\"traffic\": [{\"from\": \"[1,2]\", \"to\": \"[3,4]\", \"rate\": 7}, {\"from\": \"[1-2]\", \"to\": 5, \"rate\": 3}]}";
        PlanningInput in = PlanInputReader.read(doc(TWO_NODES, t)).orElseThrow();
        TopologyWorkload w = in.topologies().get(0);
        assertEquals(List.of(new ExecutorId(1, 2), new ExecutorId(3, 4), ExecutorId.single(5)), w.topology().executorIds());
        assertEquals(10, w.traffic().total(), 1e-9);
    }

    @Test
    void malformedJsonSaysWhere() {
        String reason = failure("{\"cluster\": {\"nodes\": [}\n}");
        assertTrue(reason.startsWith("input is not valid JSON at line 1"), reason);
        assertTrue(failure("").startsWith("input is empty"));
        assertTrue(failure("{\"cluster\": {}} trailing").contains("not valid JSON"));
    }

    @Test
    void sizesThatWouldExhaustMemoryAreRefusedBeforeAnythingIsBuilt() {
        String manySlots = "{\"id\": \"a\", \"slots\": 2000000000, \"cpu_capacity\": 100}";
        assertTrue(failure(doc(manySlots, topology("2", "[]"))).contains("2000000000 slots do not fit in ports 6700-65535"));
        String huge = "{\"id\": \"t\", \"workers\": 2, \"components\": [{\"name\": \"s\", \"parallelism\": 99000},"
                + "{\"name\": \"b\", \"parallelism\": 2000}], \"edges\": [[\"s\", \"b\"]]}";
        String reason = failure(doc(TWO_NODES, huge));
        assertTrue(reason.contains("components[1].parallelism") && reason.contains("too_many_tasks"), reason);
        String wide = "{\"id\": \"t\", \"workers\": 1, \"components\": [{\"name\": \"s\"}], \"edges\": [],"
                + "\"executors\": [{\"id\": \"[1,2000000]\", \"component\": \"s\"}]}";
        reason = failure(doc(TWO_NODES, wide));
        assertTrue(reason.contains("executors[0].id") && reason.contains("span_too_large"), reason);
    }

    @Test
    void duplicateKeysAreRejected() {
        assertTrue(failure("{\"cluster\": {\"nodes\": []}, \"cluster\": {}}").contains("not valid JSON"));
    }

    @Test
    void unknownExecutorInTrafficNamesThePlace() {
        String reason = failure(doc(TWO_NODES, topology("2",
                "[{\"from\": \"[1,1]\", \"to\": \"[3,3]\", \"rate\": 1}, {\"from\": \"[1,1]\", \"to\": \"[9,9]\", \"rate\": 5}]")));
        assertTrue(reason.startsWith("topology.traffic[1].to: executor [9,9] is not an executor of topology t"), reason);
    }

    @Test
    void moreWorkersThanSlotsIsAnError() {
        String reason = failure(doc(TWO_NODES, topology("4", "[]")));
        assertTrue(reason.startsWith("topology.workers: topology t asks for 4 workers"), reason);
        assertTrue(reason.contains("only 3 free slots"), reason);
        // Occupied slots count against it too.
        String occupied = "{\"cluster\": {\"nodes\": [" + TWO_NODES + "], \"occupied\": {\"a:6700\": \"x\", \"b:7000\": \"y\"}},"
                + "\"topology\": " + topology("2", "[]") + "}";
        assertTrue(failure(occupied).contains("only 1 free slots"));
        // W' = min(W, E): asking for more workers than executors is fine when the executors fit.
        assertTrue(PlanInputReader.read(doc(TWO_NODES.replace("\"slots\": 2", "\"slots\": 3"), topology("9", "[]"))).isSuccess());
    }

    @Test
    void topologiesTogetherMustFit() {
        String two = "{\"cluster\": {\"nodes\": [" + TWO_NODES + "]}, \"topologies\": [" + topology("2", "[]") + ","
                + topology("2", "[]").replace("\"id\": \"t\"", "\"id\": \"u\"") + "]}";
        assertTrue(failure(two).contains("together they need 4 workers"), failure(two));
    }

    @Test
    void typosAndWrongTypesAreErrorsNotDefaults() {
        assertTrue(failure(doc(TWO_NODES.replace("cpu_capacity", "cpu_capcity"), topology("1", "[]")))
                .startsWith("cluster.nodes[0]: unknown field 'cpu_capcity'"));
        assertTrue(failure(doc(TWO_NODES, topology("\"2\"", "[]"))).startsWith("topology.workers: expected an integer"));
        assertTrue(failure(doc(TWO_NODES, topology("2", "[{\"from\": 1, \"to\": 3, \"rate\": -1}]")))
                .startsWith("topology.traffic[0].rate: must be >= 0"));
        assertTrue(failure(doc(TWO_NODES, topology("2", "[{\"from\": 1, \"to\": 3}]")))
                .startsWith("topology.traffic[0]: missing required field 'rate'"));
    }

    @Test
    void graphAndPlacementErrors() {
        assertTrue(failure(doc(TWO_NODES, topology("2", "[]").replace("[[\"s\", \"b\"]]", "[[\"s\", \"b\"], [\"b\", \"s\"]]")))
                .contains("cycle"));
        assertTrue(failure(doc(TWO_NODES, topology("2", "[]").replace("[[\"s\", \"b\"]]", "[[\"s\", \"x\"]]")))
                .startsWith("topology.edges[0]: unknown component 'x'"));
        String onMissingPort = topology("2", "[]").replace("\"traffic\"", "\"current_placement\": {\"b:7001\": [1]}, \"traffic\"");
        assertTrue(failure(doc(TWO_NODES, onMissingPort)).startsWith("topology.current_placement.b:7001: node b has no port 7001"));
        String twice = topology("2", "[]").replace("\"traffic\"", "\"current_placement\": {\"a:6700\": [1], \"b:7000\": [\"[1,1]\"]}, \"traffic\"");
        assertTrue(failure(doc(TWO_NODES, twice)).contains("executor [1,1] is also placed on a:6700"));
    }

    @Test
    void paramsAreValidated() {
        String base = doc(TWO_NODES, topology("2", "[]"));
        String withParams = base.substring(0, base.length() - 1) + ", \"params\": %s}";
        assertTrue(failure(String.format(withParams, "{\"aniello\": {\"alpha\": 2}}")).startsWith("params.aniello.alpha: must be in [0, 1]"));
        assertTrue(failure(String.format(withParams, "{\"otd\": {\"low_cpu\": 0.9}}")).startsWith("params: need 0 <= lowCpu < highCpu"));
        assertTrue(failure(String.format(withParams, "{\"sam\": {\"allocation\": {\"nope\": {}}}}")).contains("no topology 'nope'"));
        PlanningInput in = PlanInputReader.read(String.format(withParams,
                "{\"elastic\": {\"time_budget_ms\": 250}, \"optimum\": {\"max_executors\": 5}, \"otd\": {\"pinned\": [3]}}")).orElseThrow();
        assertEquals(250_000_000L, in.params().elastic().timeBudgetNanos());
        assertEquals(5, in.params().optimum().maxExecutors());
        assertEquals(java.util.Set.of("[3,3]"), in.params().otd().pinned());
    }
}
