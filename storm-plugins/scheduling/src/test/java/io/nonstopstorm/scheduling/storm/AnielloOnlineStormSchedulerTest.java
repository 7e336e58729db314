package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.core.InterNodeTraffic;
import io.nonstopstorm.scheduling.model.ExecutorId;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.LoadSample;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.nextRound;
import static io.nonstopstorm.scheduling.storm.StormFixtures.slotsOf;
import static io.nonstopstorm.scheduling.storm.StormFixtures.supervisors;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnielloOnlineStormSchedulerTest {

    private static final Map<String, SupervisorDetails> SUPS = supervisors(2, 2);

    /** Spout 1 feeds split 4, spout 2 feeds split 3, split 3 feeds count 6, split 4 feeds count 5. */
    private static final TrafficMatrix CROSSED = TrafficMatrix.builder()
            .add(t(1), t(4), 500).add(t(2), t(3), 500).add(t(3), t(6), 400).add(t(4), t(5), 400)
            .add(t(1), t(3), 5).add(t(2), t(4), 5).build();

    private record FixedMetrics(TrafficMatrix traffic) implements SchedulingMetrics {
        @Override
        public Optional<TrafficMatrix> traffic(String topologyId) {
            return Optional.of(traffic);
        }

        @Override
        public ExecutorLoads executorLoads(String topologyId) {
            return ExecutorLoads.none();
        }

        @Override
        public Map<String, Double> backgroundLoad(String topologyId) {
            return Map.of();
        }

        @Override
        public Map<String, List<LoadSample>> nodeLoadHistory() {
            return Map.of();
        }
    }

    @Test
    void startsOfflineThenMovesExecutorsWhenTrafficSaysSoAndThenHoldsStill() {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "aniello-online",
                "nonstop.aniello.period.secs", 60, "nonstop.aniello.improvement.percent", 10));
        AtomicLong now = new AtomicLong(0);
        AnielloOnlineStormScheduler s = new AnielloOnlineStormScheduler(new FixedMetrics(CROSSED), now::get);
        s.prepare(new HashMap<>(), new StormMetricsRegistry());

        // Round 1: offline placement, one worker per supervisor, heavy pairs split across nodes.
        Cluster r1 = cluster(SUPS, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), r1);
        assertTrue(r1.getUnassignedExecutors(wc).isEmpty());
        double before = InterNodeTraffic.of(CROSSED, StormModelMapper.placement(r1, "wc"));
        assertTrue(before > 1000, "offline placement crosses the heavy pairs: " + before);

        // Round 2: a candidate is due; it puts both workers on one node and is applied.
        now.set(1_000);
        Cluster r2 = nextRound(r1, SUPS, wc);
        s.schedule(new Topologies(wc), r2);
        assertTrue(r2.getStatusMap().get("wc").contains("rescheduled"), r2.getStatusMap().get("wc"));
        assertEquals(0.0, InterNodeTraffic.of(CROSSED, StormModelMapper.placement(r2, "wc")), 1e-9);
        assertTrue(r2.getUnassignedExecutors(wc).isEmpty());
        assertEquals(2, r2.getAssignedNumWorkers(wc));

        // Round 3: within the period nothing is computed.
        now.set(30_000);
        Cluster r3 = nextRound(r2, SUPS, wc);
        s.schedule(new Topologies(wc), r3);
        assertEquals(slotsOf(r2, "wc"), slotsOf(r3, "wc"));
        assertTrue(r3.getStatusMap().get("wc").contains("next candidate in 31 s"), r3.getStatusMap().get("wc"));

        // Round 4: after the period the candidate equals the running placement: kept.
        now.set(61_001);
        Cluster r4 = nextRound(r3, SUPS, wc);
        s.schedule(new Topologies(wc), r4);
        assertEquals(slotsOf(r2, "wc"), slotsOf(r4, "wc"));
        assertTrue(r4.getStatusMap().get("wc").contains("kept"), r4.getStatusMap().get("wc"));
    }

    @Test
    void withoutMeasurementsItOnlyPlacesOffline() {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "aniello-online"));
        AnielloOnlineStormScheduler s = new AnielloOnlineStormScheduler();
        s.prepare(new HashMap<>(), new StormMetricsRegistry());
        Cluster r1 = cluster(SUPS, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), r1);
        Cluster r2 = nextRound(r1, SUPS, wc);
        s.schedule(new Topologies(wc), r2);
        assertEquals(slotsOf(r1, "wc"), slotsOf(r2, "wc"));
        assertEquals("nonstop aniello-online: no traffic measurements yet", r2.getStatusMap().get("wc"));
    }

    private static ExecutorId t(int task) {
        return ExecutorId.ofTask(task);
    }
}
