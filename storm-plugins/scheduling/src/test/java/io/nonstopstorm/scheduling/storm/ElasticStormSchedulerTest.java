package io.nonstopstorm.scheduling.storm;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.nextRound;
import static io.nonstopstorm.scheduling.storm.StormFixtures.prepared;
import static io.nonstopstorm.scheduling.storm.StormFixtures.slotsOf;
import static io.nonstopstorm.scheduling.storm.StormFixtures.supervisors;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.NodeReading;
import io.nonstopstorm.scheduling.model.Placement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.junit.jupiter.api.Test;

class ElasticStormSchedulerTest {

    /** Node readings only, as the metrics plane gives them. */
    static final class Readings extends SchedulingMetrics.None {
        private final Map<String, NodeReading> nodes;

        Readings(Map<String, NodeReading> nodes) {
            this.nodes = nodes;
        }

        @Override
        public Map<String, NodeReading> nodeReadings() {
            return nodes;
        }
    }

    private static NodeReading busy(double cores, double bytesPerSecond) {
        return new NodeReading(2, cores, bytesPerSecond, 0);
    }

    private static ElasticStormScheduler scheduler(SchedulingMetrics m, Map<String, Object> nimbusConf) {
        return prepared(new ElasticStormScheduler(m, () -> 0L), nimbusConf);
    }

    @Test
    void aNewTopologyAvoidsTheHeavyNodeAndPrefersTheLightOne() {
        Map<String, SupervisorDetails> sups = supervisors(3, 2);
        // sup1 heavy (90 %), sup2 moderate (50 %), sup3 light (10 %) of 2 cores.
        ElasticStormScheduler s = scheduler(new Readings(Map.of("sup1", busy(1.8, 0), "sup2", busy(1.0, 0),
                                                               "sup3", busy(0.2, 0))), Map.of());
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "elastic"));
        Cluster c = cluster(sups, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), c);

        assertTrue(c.getUnassignedExecutors(wc).isEmpty());
        Placement p = StormModelMapper.placement(c, "wc");
        assertTrue(!p.usedNodes().contains("sup1"), "the heavy node gets nothing: " + p);
        long onLight = p.asMap().values().stream().filter(slot -> slot.nodeId().equals("sup3")).count();
        assertTrue(onLight > p.size() / 2, "most executors go to the light node: " + p);
        String status = c.getStatusMap().get("wc");
        assertTrue(status.startsWith("nonstop elastic: elastic allocation on") && status.contains("sup1=HEAVY")
                   && status.contains("sup2=MODERATE") && status.contains("sup3=LIGHT"), status);

        // A placed topology is left alone, even when the loads have changed.
        ElasticStormScheduler later = scheduler(new Readings(Map.of("sup3", busy(1.9, 0))), Map.of());
        Cluster next = nextRound(c, sups, wc);
        later.schedule(new Topologies(wc), next);
        assertEquals(slotsOf(c, "wc"), slotsOf(next, "wc"));
        assertEquals("nonstop elastic: all executors placed", next.getStatusMap().get("wc"));
    }

    @Test
    void aSaturatedLinkMakesANodeHeavyToo() {
        Map<String, SupervisorDetails> sups = supervisors(2, 2);
        // Both CPUs idle; sup1's link at 85 % of the 1 MB/s Nimbus says every node has.
        ElasticStormScheduler s = scheduler(new Readings(Map.of("sup1", busy(0.1, 850_000), "sup2", busy(0.1, 1000))),
                                           Map.of(ElasticStormScheduler.NODE_BANDWIDTH_KEY, 1_000_000));
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "elastic-allocator"));
        Cluster c = cluster(sups, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), c);
        assertEquals(Set("sup2"), StormModelMapper.placement(c, "wc").usedNodes());
    }

    @Test
    void declaredExecutorCpuSpreadsATopologyThatDoesNotFitOneNode() {
        Map<String, SupervisorDetails> sups = supervisors(2, 2);
        ElasticStormScheduler s = scheduler(new Readings(Map.of()), Map.of(ElasticStormScheduler.NODE_CORES_KEY, 1));
        // 7 executors at 0.25 cores on 1-core nodes under D_CPU = 0.9: no node takes more than 3.
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "elastic",
                "nonstop.elastic.executor.cores.default", 0.25));
        Cluster c = cluster(sups, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), c);
        Placement p = StormModelMapper.placement(c, "wc");
        assertEquals(7, p.size());
        assertEquals(Set("sup1", "sup2"), p.usedNodes());
        assertTrue(c.getStatusMap().get("wc").contains("spread best-effort"), c.getStatusMap().get("wc"));
    }

    @Test
    void aBadLimitFallsBackToTheDefault() {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "elastic", "nonstop.elastic.cpu.limit", 0));
        Cluster c = cluster(supervisors(2, 2), new HashMap<>(), wc);
        scheduler(new Readings(Map.of()), Map.of()).schedule(new Topologies(wc), c);
        assertTrue(c.getUnassignedExecutors(wc).isEmpty());
        assertTrue(c.getStatusMap().get("wc").contains("nonstop.elastic.cpu.limit must be > 0"), c.getStatusMap().get("wc"));
    }

    private static java.util.SortedSet<String> Set(String... ids) {
        return new java.util.TreeSet<>(List.of(ids));
    }
}
