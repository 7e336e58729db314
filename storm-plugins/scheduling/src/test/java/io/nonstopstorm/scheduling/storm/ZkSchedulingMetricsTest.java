package io.nonstopstorm.scheduling.storm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.metricsplane.MetricsFixture;
import io.nonstopstorm.scheduling.metricsplane.RawDocument;
import io.nonstopstorm.scheduling.model.LoadSample;
import io.nonstopstorm.scheduling.model.NodeReading;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ZkSchedulingMetricsTest {

    private static final String ROOT = "/nonstop/metrics";
    private static final String TOPOLOGY = "keyed-3-1767225600";
    private static final long END = 1767225660000L;
    private static final double HZ_PER_CORE = 2596.142e6;
    private static final Map<String, String> HOSTS = Map.of("sup1", "127.0.0.11", "sup2", "127.0.0.12", "sup3", "127.0.0.13");

    private static RawDocument first() {
        return new RawDocument(ROOT + "/" + TOPOLOGY + "/127.0.0.11-27121", MetricsFixture.json(), 1);
    }

    private static RawDocument second(long endMs, double busyCores, long version) {
        return new RawDocument(ROOT + "/" + TOPOLOGY + "/127.0.0.12-27122",
                MetricsFixture.secondWorker("127.0.0.12", 27122, endMs, busyCores), version);
    }

    @Test
    void givesTheAnielloSchedulerItsFiguresPerSupervisor() {
        List<RawDocument> docs = List.of(first(), second(END, 0.5, 1));
        ZkSchedulingMetrics m = new ZkSchedulingMetrics(() -> docs, ROOT, () -> END + 1000, OptionalDouble.empty());
        m.refresh(HOSTS);

        assertEquals(119.9496, m.traffic(TOPOLOGY).orElseThrow().rate(ExecutorId.single(5), ExecutorId.single(1)), 1e-9);
        assertEquals(0.2 * HZ_PER_CORE, m.executorLoads(TOPOLOGY).of(ExecutorId.single(2)), 1e-3);
        double ownOnSup1 = (0.1012 + 0.0041 + 0.0533 + 0.0937) * HZ_PER_CORE;
        Map<String, Double> background = m.backgroundLoad(TOPOLOGY);
        assertEquals(1.1875 * HZ_PER_CORE - ownOnSup1, background.get("sup1"), 1e-3);
        assertEquals((0.5 - 0.2) * HZ_PER_CORE, background.get("sup2"), 1e-3);
        assertTrue(!background.containsKey("sup3"), "nothing measured there");
        assertEquals(1.1875 * HZ_PER_CORE, m.backgroundLoad("someone-else").get("sup1"), 1e-3,
                     "for another topology the whole node is background");
        assertEquals(new NodeReading(2, 0.5, 0.0, END), m.nodeReadings().get("sup2"));
        // Node capacity B_i: cpu_count (2) x the clock, per supervisor; unmeasured sup3 has none.
        assertEquals(Map.of("sup1", 2 * HZ_PER_CORE, "sup2", 2 * HZ_PER_CORE), m.nodeCapacity());
    }

    @Test
    void staleMalformedAndMisplacedDocumentsAreSkippedAndTheRestIsUsed() {
        List<RawDocument> docs = List.of(
                second(END - 60_000, 0.5, 1),   // stale: a minute old at END
                new RawDocument(ROOT + "/" + TOPOLOGY + "/127.0.0.13-27123", "{not json", 1),
                new RawDocument(ROOT + "/" + TOPOLOGY + "/127.0.0.13-27124",
                        MetricsFixture.edited(d -> d.put("version", 2)), 1),
                new RawDocument(ROOT + "/other-1-1/127.0.0.11-27121", MetricsFixture.json(), 1));
        ZkSchedulingMetrics m = new ZkSchedulingMetrics(() -> docs, ROOT, () -> END, OptionalDouble.empty());
        m.refresh(HOSTS);
        m.refresh(HOSTS);   // the same bad versions again: skipped silently
        assertTrue(m.traffic(TOPOLOGY).isEmpty(), "no usable document of the topology");
        assertTrue(m.executorLoads(TOPOLOGY).values().isEmpty());
        assertTrue(m.nodeReadings().isEmpty());
        assertEquals(Map.of(), m.nodeLoadHistory());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aForgedSpanOrAnExecutorTheTopologyLacksRefusesTheWholeDocumentAndTheRestIsUsed() {
        RawDocument forged = new RawDocument(ROOT + "/" + TOPOLOGY + "/127.0.0.11-27121", MetricsFixture.edited(
                d -> ((List<Map<String, Object>>) d.get("executors")).get(0).put("id", List.of(1, Integer.MAX_VALUE))), 1);
        List<RawDocument> docs = List.of(forged, second(END, 0.5, 1));
        ZkSchedulingMetrics m = new ZkSchedulingMetrics(() -> docs, ROOT, () -> END, OptionalDouble.empty());
        Map<String, Set<ExecutorId>> executors = Map.of(TOPOLOGY, Set.of(ExecutorId.single(2)));
        m.refresh(HOSTS, executors);
        assertTrue(m.refusedDocument(TOPOLOGY, "127.0.0.11", 27121).orElseThrow().contains("span_too_large"));
        assertEquals(0.2 * HZ_PER_CORE, m.executorLoads(TOPOLOGY).of(ExecutorId.single(2)), 1e-3, "the other is used");
        assertEquals(Set.of(ExecutorId.single(2)), m.executorLoads(TOPOLOGY).values().keySet(), "only it");

        m.refresh(HOSTS, Map.of(TOPOLOGY, Set.of(ExecutorId.single(3))));
        assertEquals("unknown_executor: executor [2,2] is not an executor of " + TOPOLOGY,
                     m.refusedDocument(TOPOLOGY, "127.0.0.12", 27122).orElseThrow());
        assertTrue(m.executorLoads(TOPOLOGY).values().isEmpty());
    }

    @Test
    void anUnreadableZooKeeperMeansNoMeasurementsNotAnException() {
        ZkSchedulingMetrics m = new ZkSchedulingMetrics(() -> {
            throw new IllegalStateException("connection loss");
        }, ROOT, () -> END, OptionalDouble.empty());
        m.refresh(HOSTS);
        assertTrue(m.traffic(TOPOLOGY).isEmpty());
        assertEquals(Map.of(), m.backgroundLoad(TOPOLOGY));
    }

    @Test
    void theNodeLoadHistoryGetsOneSamplePerWindowAndForgetsOldOnes() {
        List<RawDocument> docs = new ArrayList<>(List.of(second(END, 0.5, 1)));
        AtomicLong now = new AtomicLong(END + 1000);
        ZkSchedulingMetrics m = new ZkSchedulingMetrics(() -> docs, ROOT, now::get, OptionalDouble.empty());
        m.refresh(HOSTS);
        m.refresh(HOSTS);   // two Nimbus rounds in one metrics window
        docs.set(0, second(END + 5000, 1.5, 2));
        now.set(END + 6000);
        m.refresh(HOSTS);
        assertEquals(List.of(new LoadSample(END, 0.5 * HZ_PER_CORE), new LoadSample(END + 5000, 1.5 * HZ_PER_CORE)),
                     m.nodeLoadHistory().get("sup2"));

        docs.clear();       // the worker is gone; the samples age out
        now.set(END + 5000 + ZkSchedulingMetrics.HISTORY_MINUTES * 60_000L + 1);
        m.refresh(HOSTS);
        assertEquals(Map.of(), m.nodeLoadHistory());
    }
}
