package io.nonstopstorm.scheduling.metricsplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.NodeReading;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class MetricsSnapshotTest {

    private static final String TOPOLOGY = "keyed-3-1767225600";
    private static final long END = 1767225660000L;
    private static final double HZ_PER_CORE = 2596.142e6;

    private static WorkerDocument fixture() {
        return WorkerDocumentParser.parse(MetricsFixture.json()).orElseThrow();
    }

    private static WorkerDocument second(long endMs) {
        return WorkerDocumentParser.parse(MetricsFixture.secondWorker("127.0.0.12", 27122, endMs, 0.5)).orElseThrow();
    }

    @Test
    void taskPairsAddUpPerExecutorPairAcrossWorkers() {
        TrafficMatrix t = new MetricsSnapshot(List.of(fixture(), second(END)), OptionalDouble.empty())
                .traffic(TOPOLOGY).orElseThrow();
        ExecutorId keys = ExecutorId.single(5);
        assertEquals(119.9496, t.rate(keys, ExecutorId.single(1)), 1e-9);
        assertEquals(80.1663, t.rate(keys, ExecutorId.single(2)), 1e-9);
        assertEquals(99.958 + 100.158, t.rate(keys, new ExecutorId(3, 4)), 1e-9, "tasks 3 and 4 are one executor");
        assertEquals(39.9832, t.rate(keys, ExecutorId.single(6)), 1e-9);
        assertEquals(50.0, t.rate(ExecutorId.single(2), new ExecutorId(3, 4)), 1e-9, "reported by the second worker");
    }

    @Test
    void pairsToExecutorsNoDocumentListsAreLeftOut() {
        TrafficMatrix t = new MetricsSnapshot(List.of(fixture()), OptionalDouble.empty()).traffic(TOPOLOGY).orElseThrow();
        assertEquals(0.0, t.rate(ExecutorId.single(5), ExecutorId.single(2)), 1e-9, "task 2's worker did not publish");
        assertEquals(119.9496, t.rate(ExecutorId.single(5), ExecutorId.single(1)), 1e-9);
    }

    @Test
    void aTopologyWithoutDocumentsHasNoTraffic() {
        MetricsSnapshot s = new MetricsSnapshot(List.of(fixture()), OptionalDouble.empty());
        assertTrue(s.traffic("other-1-1").isEmpty());
        assertTrue(s.executorHz("other-1-1").isEmpty());
    }

    @Test
    void cpuIsInHzFromCoresAndTheNodeClock() {
        MetricsSnapshot s = new MetricsSnapshot(List.of(fixture(), second(END)), OptionalDouble.empty());
        Map<ExecutorId, Double> hz = s.executorHz(TOPOLOGY);
        assertEquals(0.1012 * HZ_PER_CORE, hz.get(ExecutorId.single(1)), 1e-3);
        assertEquals((0.0117 + 0.082) * HZ_PER_CORE, hz.get(ExecutorId.single(6)), 1e-3);
        assertTrue(!hz.containsKey(ExecutorId.single(7)), "unknown CPU is left out, not 0");
        assertEquals((0.1012 + 0.0041 + 0.0533 + 0.0937) * HZ_PER_CORE, s.topologyHzByHost(TOPOLOGY).get("127.0.0.11"), 1e-3);
        assertEquals(1.1875 * HZ_PER_CORE, s.busyHzByHost().get("127.0.0.11"), 1e-3);
        assertEquals(0.5 * HZ_PER_CORE, s.busyHzByHost().get("127.0.0.12"), 1e-3);
    }

    @Test
    void withoutAClockCpuNeedsTheFallback() {
        WorkerDocument noMhz = WorkerDocumentParser.parse(MetricsFixture.edited(
                d -> MetricsFixture.section(d, "node").put("cpu_mhz", null))).orElseThrow();
        assertTrue(new MetricsSnapshot(List.of(noMhz), OptionalDouble.empty()).executorHz(TOPOLOGY).isEmpty());
        assertTrue(new MetricsSnapshot(List.of(noMhz), OptionalDouble.empty()).busyHzByHost().isEmpty());
        assertEquals(0.1012 * 1000e6, new MetricsSnapshot(List.of(noMhz), OptionalDouble.of(1000))
                .executorHz(TOPOLOGY).get(ExecutorId.single(1)), 1e-3);
    }

    @Test
    void aNodesCapacityIsItsCpusTimesTheClockWhenTheClockIsKnown() {
        assertEquals(Map.of("127.0.0.11", 2 * HZ_PER_CORE),
                new MetricsSnapshot(List.of(fixture()), OptionalDouble.empty()).capacityHzByHost());
        WorkerDocument noMhz = WorkerDocumentParser.parse(MetricsFixture.edited(
                d -> MetricsFixture.section(d, "node").put("cpu_mhz", null))).orElseThrow();
        assertTrue(new MetricsSnapshot(List.of(noMhz), OptionalDouble.empty()).capacityHzByHost().isEmpty());
        assertEquals(Map.of("127.0.0.11", 2 * 1000e6),
                new MetricsSnapshot(List.of(noMhz), OptionalDouble.of(1000)).capacityHzByHost());
    }

    @Test
    void theNewestDocumentOfAHostDescribesTheNode() {
        WorkerDocument older = WorkerDocumentParser.parse(MetricsFixture.secondWorker("127.0.0.11", 27122, END - 5000, 1.9))
                .orElseThrow();
        Map<String, NodeReading> nodes = new MetricsSnapshot(List.of(older, fixture()), OptionalDouble.empty()).nodeReadings();
        assertEquals(new NodeReading(2, 1.1875, 0.0, END), nodes.get("127.0.0.11"));
    }
}
