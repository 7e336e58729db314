package io.nonstopstorm.scheduling.storm;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.nextRound;
import static io.nonstopstorm.scheduling.storm.StormFixtures.slotsOf;
import static io.nonstopstorm.scheduling.storm.StormFixtures.supervisors;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.core.AnielloOfflineScheduler;
import io.nonstopstorm.scheduling.core.InterNodeTraffic;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.plan.ZkPlanChannel;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.scheduling.testing.InProcessZk;
import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.org.apache.zookeeper.data.Stat;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The dispatcher on real Storm scheduler objects and a real (in-process) ZooKeeper. */
class NonstopSchedulerTest {

    private static final Map<String, SupervisorDetails> SUPS = supervisors(2, 2);
    @RegisterExtension
    static final InProcessZk ZK = new InProcessZk();

    /** Spout 1 feeds split 4, spout 2 feeds split 3, split 3 feeds count 6, split 4 feeds count 5. */
    private static final TrafficMatrix CROSSED = TrafficMatrix.builder()
            .add(t(1), t(4), 500).add(t(2), t(3), 500).add(t(3), t(6), 400).add(t(4), t(5), 400).build();

    /** Fixed traffic for every topology; counts refreshes. */
    static final class FixedMetrics extends SchedulingMetrics.None {
        final AtomicInteger refreshes = new AtomicInteger();

        @Override
        public Optional<TrafficMatrix> traffic(String topologyId) {
            return Optional.of(CROSSED);
        }

        @Override
        public void refresh(Map<String, String> hostOfNode) {
            refreshes.incrementAndGet();
        }
    }

    private static NonstopScheduler scheduler(SchedulingMetrics metrics, AtomicLong now) {
        return ZK.prepare(new NonstopScheduler(metrics, now::get));
    }

    private static Map<String, Object> record(String topology) throws Exception {
        return json(ZK.client().getData().forPath(ZkPaths.schedulerDecision(topology)));
    }

    private static int recordVersion(String topology) throws Exception {
        Stat stat = ZK.client().checkExists().forPath(ZkPaths.schedulerDecision(topology));
        return stat == null ? -1 : stat.getVersion();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(byte[] data) {
        return (Map<String, Object>) JSONValue.parse(new String(data, StandardCharsets.UTF_8));
    }

    private static void writePlan(String name, String json) throws Exception {
        ZK.put(ZkPaths.PLANS + "/" + name, json);
    }

    @Test
    void eachTopologyGoesToTheSchedulerItsConfNamesAndTheRestToTheDefault() throws Exception {
        TopologyDetails offline = wordCount("d-offline", 2, Map.of("nonstop.scheduler", "aniello-offline"));
        TopologyDetails plain = wordCount("d-plain", 1, Map.of());
        TopologyDetails unknown = wordCount("d-unknown", 1, Map.of("nonstop.scheduler", "no-such"));
        Map<String, SupervisorDetails> sups = supervisors(2, 3);
        NonstopScheduler s = scheduler(new FixedMetrics(), new AtomicLong(1000));
        Cluster c = cluster(sups, new HashMap<>(), offline, plain, unknown);
        s.schedule(new Topologies(offline, plain, unknown), c);

        // The named scheduler placed its topology first, on the empty cluster, exactly as the core decides.
        Placement expected = new AnielloOfflineScheduler(0, 0.5).schedule(StormModelMapper.topology(offline),
                StormModelMapper.cluster(cluster(sups, new HashMap<>(), offline), sup -> Double.POSITIVE_INFINITY,
                        n -> 0.0)).orElseThrow();
        assertEquals(expected, StormModelMapper.placement(c, "d-offline"));
        assertTrue(c.getStatusMap().get("d-offline").startsWith("nonstop aniello-offline: offline placement"));
        // The others are placed by the default.
        assertTrue(c.getUnassignedExecutors(plain).isEmpty());
        assertTrue(c.getUnassignedExecutors(unknown).isEmpty());
        assertTrue(c.getStatusMap().get("d-unknown").contains("'no-such' names no scheduler"), c.getStatusMap().get("d-unknown"));

        // One decision record, for the topology a nonstop scheduler placed, naming it.
        Map<String, Object> rec = record("d-offline");
        assertEquals("aniello-offline", rec.get("scheduler"));
        assertEquals("applied", rec.get("status"));
        assertEquals("d-offline", rec.get("topology_id"));
        assertEquals(7, ((List<?>) rec.get("moves")).size(), "every executor got a slot");
        assertEquals(1000L, ((Number) rec.get("decided_at_ms")).longValue());
        assertEquals(-1, recordVersion("d-plain"));
        assertEquals(-1, recordVersion("d-unknown"));

        // Later rounds change nothing and write nothing.
        Cluster r2 = nextRound(c, sups, offline, plain, unknown);
        s.schedule(new Topologies(offline, plain, unknown), r2);
        Cluster r3 = nextRound(r2, sups, offline, plain, unknown);
        s.schedule(new Topologies(offline, plain, unknown), r3);
        for (String id : List.of("d-offline", "d-plain", "d-unknown")) {
            assertEquals(slotsOf(c, id), slotsOf(r3, id), id);
        }
        assertEquals(0, recordVersion("d-offline"), "no second write");
    }

    @Test
    void schedulerNamesAreMatchedTrimmedInAnyCaseAndByAlias() {
        Map<String, Object> allocation = Map.of("spout", Map.of("cpu", 0.5, "memory", 0.1, "bundle", 2));
        TopologyDetails sam = wordCount("d-sam", 4, Map.of("nonstop.scheduler", " SAM ", "nonstop.sam.allocation", allocation));
        NonstopScheduler s = scheduler(new FixedMetrics(), new AtomicLong(0));
        Cluster c = cluster(SUPS, new HashMap<>(), sam);
        s.schedule(new Topologies(sam), c);
        assertTrue(c.getStatusMap().get("d-sam").startsWith("nonstop slot-aware: slot-aware mapping"), c.getStatusMap().get("d-sam"));
    }

    @Test
    void rasTopologiesGoToStormsResourceAwareSchedulerWithARecord() throws Exception {
        Map<String, Object> requests = Map.of("topology.component.cpu.pcore.percent", 20.0,
                "topology.component.resources.onheap.memory.mb", 100.0);
        Map<String, Object> rasConf = new HashMap<>(requests);
        rasConf.put("nonstop.scheduler", "ras");
        Map<String, Object> aliasConf = new HashMap<>(requests);
        aliasConf.put("nonstop.scheduler", " Resource-Aware ");
        TopologyDetails ras = wordCount("d-ras", 2, rasConf);
        TopologyDetails alias = wordCount("d-ras-alias", 2, aliasConf);
        TopologyDetails plain = wordCount("d-ras-plain", 2, Map.of());
        Map<String, SupervisorDetails> sups = new HashMap<>();
        for (String id : List.of("sup1", "sup2")) {
            sups.put(id, new SupervisorDetails(id, "h-" + id, null, List.of(6700, 6701, 6702, 6703),
                    Map.of("supervisor.cpu.capacity", 400.0, "supervisor.memory.capacity.mb", 4096.0)));
        }
        NonstopScheduler s = scheduler(new FixedMetrics(), new AtomicLong(5000));
        Cluster c = cluster(sups, new HashMap<>(), ras, alias, plain);
        s.schedule(new Topologies(ras, alias, plain), c);
        for (TopologyDetails td : List.of(ras, alias, plain)) {
            assertTrue(c.getUnassignedExecutors(td).isEmpty(), td.getId());
        }
        assertTrue(c.getStatusMap().get("d-ras").startsWith("nonstop ras: resource-aware placement"), c.getStatusMap().get("d-ras"));
        assertTrue(c.getStatusMap().get("d-ras-alias").startsWith("nonstop ras: "), c.getStatusMap().get("d-ras-alias"));
        Map<String, Object> rec = record("d-ras");
        assertEquals("ras", rec.get("scheduler"));
        assertEquals("applied", rec.get("status"));
        assertEquals(7, ((List<?>) rec.get("moves")).size());
        assertEquals(-1, recordVersion("d-ras-plain"));
        // No two topologies share a worker.
        Map<org.apache.storm.scheduler.WorkerSlot, String> owner = new HashMap<>();
        for (TopologyDetails td : List.of(ras, alias, plain)) {
            for (org.apache.storm.scheduler.WorkerSlot ws : slotsOf(c, td.getId()).keySet()) {
                assertNull(owner.put(ws, td.getId()), ws + " shared");
            }
        }
    }

    @Test
    void theOnlineSchedulerGetsTheMeasurementsAndTheyAreReadOnlyWhenNeeded() throws Exception {
        TopologyDetails wc = wordCount("d-online", 2, Map.of("nonstop.scheduler", "aniello-online"));
        TopologyDetails offline = wordCount("d-offline-2", 1, Map.of("nonstop.scheduler", "aniello-offline"));
        FixedMetrics metrics = new FixedMetrics();
        AtomicLong now = new AtomicLong(0);
        NonstopScheduler s = scheduler(metrics, now);

        Cluster r0 = cluster(SUPS, new HashMap<>(), offline);
        s.schedule(new Topologies(offline), r0);
        assertEquals(0, metrics.refreshes.get(), "no topology needs measurements");

        Cluster r1 = cluster(SUPS, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), r1);
        double before = InterNodeTraffic.of(CROSSED, StormModelMapper.placement(r1, "d-online"));
        assertTrue(before > 0, "the offline start crosses nodes");
        now.set(1000);
        Cluster r2 = nextRound(r1, SUPS, wc);
        s.schedule(new Topologies(wc), r2);
        assertEquals(2, metrics.refreshes.get());
        assertTrue(r2.getStatusMap().get("d-online").contains("rescheduled"), r2.getStatusMap().get("d-online"));
        assertEquals(0.0, InterNodeTraffic.of(CROSSED, StormModelMapper.placement(r2, "d-online")), 1e-9);
        Map<String, Object> rec = record("d-online");
        assertEquals("aniello-online", rec.get("scheduler"));
        assertTrue(((String) rec.get("reason")).startsWith("rescheduled"), rec.toString());
        assertEquals(1, recordVersion("d-online"), "placed, then rescheduled: two records");
    }

    /** A word count that names the online scheduler, placed at time 0 by a dispatcher of its own. */
    private record OnlineWordCount(TopologyDetails wc, AtomicLong now, NonstopScheduler scheduler, Cluster first) {
        static OnlineWordCount placed(String id) {
            TopologyDetails wc = wordCount(id, 2, Map.of("nonstop.scheduler", "aniello-online"));
            AtomicLong now = new AtomicLong(0);
            NonstopScheduler s = NonstopSchedulerTest.scheduler(new FixedMetrics(), now);
            Cluster first = cluster(SUPS, new HashMap<>(), wc);
            s.schedule(new Topologies(wc), first);
            return new OnlineWordCount(wc, now, s, first);
        }

        /** The Nimbus round after {@code previous}, at {@code atMs}. */
        Cluster round(Cluster previous, long atMs) {
            now.set(atMs);
            Cluster next = nextRound(previous, SUPS, wc);
            scheduler.schedule(new Topologies(wc), next);
            return next;
        }
    }

    private static Map<String, Object> planDecision(String topology) throws Exception {
        return json(ZK.client().getData().forPath(ZkPaths.DECISIONS + "/" + topology));
    }

    @Test
    void aControllerPlanWinsOverTheTopologysSchedulerAndKeepsItsPlacement() throws Exception {
        OnlineWordCount o = OnlineWordCount.placed("d-planned");
        Placement placed = StormModelMapper.placement(o.first(), "d-planned");

        // The plan moves spout [1,1] to the worker it is not on; the online scheduler would instead have
        // rescheduled (see the previous test).
        SlotId from = placed.slotOf(t(1)).orElseThrow();
        SlotId to = placed.usedSlots().stream().filter(x -> !x.equals(from)).findFirst().orElseThrow();
        writePlan("d-planned", "{\"request_id\":\"r-1\",\"placement\":{\"[1,1]\":\"" + to.nodeId() + ":" + to.port() + "\"}}");
        Cluster r2 = o.round(o.first(), 1000);
        Placement planned = StormModelMapper.placement(r2, "d-planned");
        assertEquals(to, planned.slotOf(t(1)).orElseThrow());
        assertEquals(placed.movedComparedTo(planned), java.util.Set.of(t(1)), "only the planned executor moved");
        assertTrue(r2.getStatusMap().get("d-planned").startsWith("nonstop plan v0 applied"), r2.getStatusMap().get("d-planned"));
        assertEquals("applied", planDecision("d-planned").get("status"));

        // Periods later the topology's scheduler is still not asked: the plan's placement stands.
        for (long t : new long[] {61_000, 122_000}) {
            r2 = o.round(r2, t);
            assertEquals(planned, StormModelMapper.placement(r2, "d-planned"));
        }
        assertEquals(0, recordVersion("d-planned"), "the scheduler's only record is its first placement");
    }

    @Test
    void aRejectedPlanLeavesTheTopologyWithItsScheduler() throws Exception {
        OnlineWordCount o = OnlineWordCount.placed("d-rejected");
        writePlan("d-rejected", "{\"placement\":{\"[99,99]\":\"sup1:6700\"}}");
        Cluster r2 = o.round(o.first(), 1000);
        assertEquals("rejected", planDecision("d-rejected").get("status"));
        assertTrue(r2.getStatusMap().get("d-rejected").contains("rescheduled"), r2.getStatusMap().get("d-rejected"));
    }

    @Test
    void aSchedulerThatCannotPlaceFallsBackAndTheRecordSaysSo() throws Exception {
        TopologyDetails wc = wordCount("d-bad", 2, Map.of("nonstop.scheduler", "aniello-offline", "nonstop.aniello.beta", 7));
        NonstopScheduler s = scheduler(new FixedMetrics(), new AtomicLong(0));
        Cluster c = cluster(SUPS, new HashMap<>(), wc);
        s.schedule(new Topologies(wc), c);
        assertTrue(c.getUnassignedExecutors(wc).isEmpty());
        Map<String, Object> rec = record("d-bad");
        assertEquals("fallback", rec.get("status"));
        assertTrue(((String) rec.get("reason")).contains("nonstop.aniello.beta must be in [0,1]"), rec.toString());
    }

    @Test
    void withoutZooKeeperTheSchedulersStillPlace() {
        Map<String, Object> noZk = new HashMap<>(ZK.conf());
        noZk.remove("storm.zookeeper.servers");
        NonstopScheduler s = new NonstopScheduler();
        s.prepare(noZk, new StormMetricsRegistry());
        TopologyDetails offline = wordCount("n-offline", 2, Map.of("nonstop.scheduler", "aniello-offline"));
        TopologyDetails online = wordCount("n-online", 2, Map.of("nonstop.scheduler", "aniello-online"));
        Cluster c = cluster(supervisors(2, 2), new HashMap<>(), offline, online);
        s.schedule(new Topologies(offline, online), c);
        assertTrue(c.getUnassignedExecutors(offline).isEmpty());
        assertTrue(c.getUnassignedExecutors(online).isEmpty());
        Cluster next = nextRound(c, supervisors(2, 2), offline, online);
        s.schedule(new Topologies(offline, online), next);
        assertEquals("nonstop aniello-online: no traffic measurements yet", next.getStatusMap().get("n-online"));
        assertNotEquals(null, next.getAssignmentById("n-offline"));
        s.cleanup();
    }

    private static ExecutorId t(int task) {
        return ExecutorId.single(task);
    }
}
