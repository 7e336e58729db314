package io.nonstopstorm.scheduling.metricsplane;

import static io.nonstopstorm.scheduling.metricsplane.MetricsFixture.edited;
import static io.nonstopstorm.scheduling.metricsplane.MetricsFixture.items;
import static io.nonstopstorm.scheduling.metricsplane.MetricsFixture.section;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.wire.ExecutorId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerDocumentParserTest {

    @Test
    void readsTheSharedFixture() {
        WorkerDocument d = WorkerDocumentParser.parse(MetricsFixture.json()).orElseThrow();
        assertEquals("keyed-3-1767225600", d.topologyId());
        assertEquals("127.0.0.11-27121", d.workerName());
        assertEquals(1767225660000L, d.windowEndMs());
        assertEquals(5, d.periodS());
        assertEquals(2, d.node().cpuCount());
        assertEquals(2596.142, d.node().cpuMhz().getAsDouble(), 1e-9);
        assertEquals(1.1875, d.node().busyCores().getAsDouble(), 1e-9);
        assertEquals(0.0, d.node().netBytesPerSecond(), 1e-9, "loopback traffic is not network use");
        assertEquals(List.of(new ExecutorId(1, 1), new ExecutorId(3, 4), new ExecutorId(5, 5), new ExecutorId(6, 6),
                             new ExecutorId(7, 7)), d.executors().stream().map(WorkerDocument.ExecutorCpu::id).toList());
        assertEquals(0.0117 + 0.082, d.executor(new ExecutorId(6, 6)).orElseThrow().cores().getAsDouble(), 1e-9,
                     "the thread plus its multilang child process");
        assertTrue(d.executor(new ExecutorId(7, 7)).orElseThrow().cores().isEmpty(), "null is unknown, not 0");
        assertEquals(5, d.traffic().size());
        assertEquals(new WorkerDocument.TaskFlow(5, 3, 99.958), d.traffic().get(2));
    }

    @Test
    void networkUseIsTheLargerDirectionOverRealInterfaces() {
        String json = edited(d -> section(d, "node").put("net", List.of(
                Map.of("interface", "lo", "rx_bytes_per_s", 9e9, "tx_bytes_per_s", 9e9),
                Map.of("interface", "eth0", "rx_bytes_per_s", 1000.0, "tx_bytes_per_s", 300.0),
                Map.of("interface", "eth1", "rx_bytes_per_s", 500.0, "tx_bytes_per_s", 2000.0))));
        assertEquals(2300.0, WorkerDocumentParser.parse(json).orElseThrow().node().netBytesPerSecond(), 1e-9);
    }

    @Test
    void unknownFieldsAreIgnored() {
        String json = edited(d -> {
            d.put("something_new", Map.of("x", 1));
            section(d, "node").put("gpu_count", 4);
        });
        assertTrue(WorkerDocumentParser.parse(json).isSuccess());
    }

    @Test
    void readsWhatOtdNeedsWorkerCpuWindowSequenceAndQueues() {
        WorkerDocument d = WorkerDocumentParser.parse(MetricsFixture.json()).orElseThrow();
        assertEquals(11, d.windowSeq());
        assertEquals(0.4127, d.cpuCores().getAsDouble(), 1e-9);
        assertEquals(0.4127 + 0.082, d.loadCores().getAsDouble(), 1e-9, "the JVM plus its multilang child processes");
        assertEquals(3, d.queueLength(), "3 + 0 + 0, unknown (null) lengths left out");
        assertEquals(1767225655000L, d.windowStartMs());
        assertTrue(d.executor(new ExecutorId(6, 6)).orElseThrow().queueLength().isEmpty());

        WorkerDocument unknownCpu = WorkerDocumentParser.parse(edited(x -> section(x, "worker").put("cpu_cores", null)))
                .orElseThrow();
        assertTrue(unknownCpu.loadCores().isEmpty(), "no JVM figure, no load");
        WorkerDocument noQueues = WorkerDocumentParser.parse(edited(x -> items(x, "executors").forEach(e -> e.remove("queue_length"))))
                .orElseThrow();
        assertEquals(0, noQueues.queueLength());
        assertFailure(edited(x -> section(x, "window").remove("seq")), "$.window.seq: missing");
        assertFailure(edited(x -> items(x, "executors").get(0).put("queue_length", -1)), "$.executors[0].queue_length: must be >= 0");
    }

    @Test
    void badDocumentsAreFailuresNamingTheProblem() {
        assertFailure(edited(d -> d.put("version", 2)), "$.version: 2 is not supported");
        assertFailure(edited(d -> d.put("schema", "other")), "$.schema: expected nonstop.metrics.worker");
        assertFailure(edited(d -> d.remove("node")), "$.node: missing");
        assertFailure(edited(d -> section(d, "window").put("end_ms", "soon")), "$.window.end_ms: expected an integer");
        assertFailure(edited(d -> items(d, "traffic").get(1).put("tuples_per_s", -1)),
                      "$.traffic[1].tuples_per_s: expected a finite non-negative number");
        assertFailure(edited(d -> items(d, "executors").get(0).put("id", List.of(4, 2))),
                      "$.executors[0].id: bad_span: executor [4,2]");
        assertFailure(edited(d -> items(d, "executors").get(0).put("id", List.of(4))),
                      "$.executors[0].id: expected [start, end]");
        assertFailure(edited(d -> items(d, "executors").get(0).put("id", List.of(1, Integer.MAX_VALUE))),
                      "$.executors[0].id: span_too_large: executor [1,2147483647]");
        assertFailure("{\"schema\": ", "not JSON");
        assertFailure("[]", "$: expected an object");
        assertFailure("", "not JSON");
    }

    private static void assertFailure(String json, String expected) {
        Outcome<WorkerDocument> o = WorkerDocumentParser.parse(json);
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().contains(expected), o.reasonOrNull());
    }
}
