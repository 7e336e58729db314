package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.core.InterNodeTraffic;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.nextRound;
import static io.nonstopstorm.scheduling.storm.StormFixtures.prepared;
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

    private static final class FixedMetrics extends SchedulingMetrics.None {
        private final TrafficMatrix traffic;

        FixedMetrics(TrafficMatrix traffic) {
            this.traffic = traffic;
        }

        @Override
        public Optional<TrafficMatrix> traffic(String topologyId) {
            return Optional.of(traffic);
        }

    }

    @Test
    void startsOfflineThenMovesExecutorsWhenTrafficSaysSoAndThenHoldsStill() {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "aniello-online",
                "nonstop.aniello.period.secs", 60, "nonstop.aniello.improvement.percent", 10));
        AtomicLong now = new AtomicLong(0);
        AnielloOnlineStormScheduler s = prepared(new AnielloOnlineStormScheduler(new FixedMetrics(CROSSED), now::get), Map.of());

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
        AnielloOnlineStormScheduler s = prepared(new AnielloOnlineStormScheduler(), Map.of());
        Cluster r1 = cluster(SUPS, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), r1);
        Cluster r2 = nextRound(r1, SUPS, wc);
        s.schedule(new Topologies(wc), r2);
        assertEquals(slotsOf(r1, "wc"), slotsOf(r2, "wc"));
        assertEquals("nonstop aniello-online: no traffic measurements yet", r2.getStatusMap().get("wc"));
    }

    @Test
    void forgetsTopologiesGoneFromTheClusterButNotOnesHeldElsewhere() {
        Map<String, Object> online = Map.of("nonstop.scheduler", "aniello-online");
        TopologyDetails a = wordCount("a", 2, online);
        TopologyDetails b = wordCount("b", 2, online);
        AtomicLong now = new AtomicLong(0);
        AnielloOnlineStormScheduler s = prepared(new AnielloOnlineStormScheduler(new FixedMetrics(CROSSED), now::get), Map.of());
        Cluster r1 = cluster(SUPS, new HashMap<>(), a, b);
        s.schedule(new Topologies(a, b), r1);
        now.set(1_000);
        Cluster r2 = nextRound(r1, SUPS, a, b);
        s.schedule(new Topologies(a, b), r2);
        assertEquals(java.util.Set.of("a", "b"), s.remembered(), "a candidate was computed for both");

        // b is still in the cluster but not given to this scheduler (a controller plan holds it): kept.
        Cluster r3 = nextRound(r2, SUPS, a, b);
        s.schedule(new Topologies(a), r3);
        assertEquals(java.util.Set.of("a", "b"), s.remembered());
        // b was killed: forgotten.
        Cluster r4 = nextRound(r3, SUPS, a);
        s.schedule(new Topologies(a), r4);
        assertEquals(java.util.Set.of("a"), s.remembered());
        // A round with none of its topologies left (the dispatcher still calls it): nothing kept.
        s.schedule(new Topologies(), cluster(SUPS, new HashMap<>()));
        assertEquals(java.util.Set.of(), s.remembered());
    }

    /** Traffic CROSSED, 100 Hz per user executor, and the node capacities the metrics plane measured. */
    private static final class MeasuredMetrics extends SchedulingMetrics.None {
        private final Map<String, Double> capacity;

        MeasuredMetrics(Map<String, Double> capacity) {
            this.capacity = capacity;
        }

        @Override
        public Optional<TrafficMatrix> traffic(String topologyId) {
            return Optional.of(CROSSED);
        }

        @Override
        public ExecutorLoads executorLoads(String topologyId) {
            Map<ExecutorId, Double> loads = new HashMap<>();
            for (int task = 1; task <= 6; task++) {
                loads.put(t(task), 100.0);
            }
            return ExecutorLoads.of(loads);
        }

        @Override
        public Map<String, Double> nodeCapacity() {
            return capacity;
        }
    }

    /** Runs the placing round and one candidate round; the placement after it. */
    private static Cluster twoRounds(SchedulingMetrics metrics, Map<String, Object> nimbusConf,
                                     Map<String, SupervisorDetails> sups) {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "aniello-online"));
        AtomicLong now = new AtomicLong(0);
        AnielloOnlineStormScheduler s = new AnielloOnlineStormScheduler(metrics, now::get);
        s.prepare(nimbusConf, new StormMetricsRegistry());
        Cluster r1 = cluster(sups, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), r1);
        now.set(1_000);
        Cluster r2 = nextRound(r1, sups, wc);
        s.schedule(new Topologies(wc), r2);
        return r2;
    }

    private static Map<String, Double> nodeLoads(Cluster c) {
        Map<String, Double> out = new HashMap<>();
        StormModelMapper.placement(c, "wc").asMap().forEach((e, slot) ->
                out.merge(slot.nodeId(), e.start() <= 6 ? 100.0 : 0.0, Double::sum));
        return out;
    }

    @Test
    void nodeCapacityDefaultsToTheMeasuredOneAndCanBeLiftedOrSet() {
        // 600 Hz of executors: one node of 400 Hz cannot take both workers, so traffic keeps crossing.
        Cluster measured = twoRounds(new MeasuredMetrics(Map.of("sup1", 400.0, "sup2", 400.0)), Map.of(), SUPS);
        assertTrue(InterNodeTraffic.of(CROSSED, StormModelMapper.placement(measured, "wc")) > 0);
        nodeLoads(measured).values().forEach(load -> assertTrue(load <= 400.0, nodeLoads(measured).toString()));
        // A node without a reading gets the mean of the measured ones: the same bound.
        Cluster oneMeasured = twoRounds(new MeasuredMetrics(Map.of("sup1", 400.0)), Map.of(), SUPS);
        nodeLoads(oneMeasured).values().forEach(load -> assertTrue(load <= 400.0, nodeLoads(oneMeasured).toString()));

        // Nimbus conf "unbounded", or a number in a supervisor's meta: both workers on one node, no crossing.
        Cluster lifted = twoRounds(new MeasuredMetrics(Map.of("sup1", 400.0, "sup2", 400.0)),
                Map.of(ConfiguredScheduler.NODE_CAPACITY_KEY, "Unbounded"), SUPS);
        assertEquals(0.0, InterNodeTraffic.of(CROSSED, StormModelMapper.placement(lifted, "wc")), 1e-9);
        Map<String, SupervisorDetails> big = new HashMap<>();
        SUPS.forEach((id, sup) -> big.put(id, new SupervisorDetails(id, sup.getHost(),
                Map.of(ConfiguredScheduler.NODE_CAPACITY_KEY, 1000), sup.getAllPorts())));
        Cluster set = twoRounds(new MeasuredMetrics(Map.of("sup1", 400.0, "sup2", 400.0)), Map.of(), big);
        assertEquals(0.0, InterNodeTraffic.of(CROSSED, StormModelMapper.placement(set, "wc")), 1e-9);
        // Without any measurement there is no bound either.
        Cluster none = twoRounds(new MeasuredMetrics(Map.of()), Map.of(), SUPS);
        assertEquals(0.0, InterNodeTraffic.of(CROSSED, StormModelMapper.placement(none, "wc")), 1e-9);
    }

    @Test
    void aBadNodeCapacityIsAClearFallbackReason() {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "aniello-online"));
        AnielloOnlineStormScheduler s = new AnielloOnlineStormScheduler();
        s.prepare(Map.of(ConfiguredScheduler.NODE_CAPACITY_KEY, "lots"), new StormMetricsRegistry());
        Cluster c = cluster(SUPS, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), c);
        assertTrue(c.getUnassignedExecutors(wc).isEmpty(), "the DefaultScheduler placed it");
        String status = c.getStatusMap().get("wc");
        assertTrue(status.contains("nonstop.node.capacity must be a number >= 0, 'measured' or 'unbounded', got lots"),
                status);
    }

    private static ExecutorId t(int task) {
        return ExecutorId.single(task);
    }
}
