package io.nonstopstorm.scheduling.storm;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.nextRound;
import static io.nonstopstorm.scheduling.storm.StormFixtures.slotsOf;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The OTD adapter on real Storm scheduler objects, with a metrics plane fed by schema-v1 documents. */
class OtdStormSchedulerTest {

    private static final Map<String, SupervisorDetails> SUPS = OtdWorld.supervisors();
    /**
     * Word count's task pairs (spout 1-2, split 3-4, count 5-6). With the default placement spout 1, split 3
     * and count 5 share worker A: moving spout 1 to B's node gains 150 - 100 = 50 tuples/s of inter-node
     * traffic, split 3 would lose 180, count 5 would lose 80.
     */
    // Spout 1's move would gain most (150 - 10) but spouts never move; split 3's gains 100 - 10 - 20.
    private static final Map<List<Integer>, Double> TRAFFIC = Map.of(List.of(1, 3), 10.0, List.of(1, 4), 150.0,
            List.of(2, 3), 100.0, List.of(2, 4), 100.0, List.of(3, 5), 20.0, List.of(4, 6), 80.0);

    private OtdWorld world;
    private StormMetricsRegistry registry;
    private OtdStormScheduler otd;
    private final List<ConfiguredScheduler.Decision> recorded = new ArrayList<>();
    private TopologyDetails wc;
    private String workerA;
    private String workerB;

    @BeforeEach
    void setUp() {
        world = new OtdWorld();
        registry = new StormMetricsRegistry();
        otd = new OtdStormScheduler(world.metrics, world.now::get);
        otd.prepare(new HashMap<>(), registry);
        otd.recordDecisionsWith((td, scheduler, d) -> recorded.add(d));
    }

    /** Round 1: OTD leaves the initial placement to Storm's default; both workers then publish start-up windows. */
    private Cluster placed(Map<String, Object> conf) {
        Map<String, Object> all = new HashMap<>(conf);
        all.put("nonstop.scheduler", "otd");
        wc = wordCount("wc", 2, all);
        Cluster r1 = round(cluster(SUPS, new HashMap<>(), wc));
        workerA = OtdWorld.workerOf(r1, "wc", 1);
        workerB = OtdWorld.workerOf(r1, "wc", 2);
        world.publish(r1, wc, Map.of(), TRAFFIC);   // seq 1: the JVMs' start-up, never used
        return r1;
    }

    private Cluster round(Cluster c) {
        world.refresh();
        otd.schedule(new Topologies(wc), c);
        return c;
    }

    private Cluster next(Cluster previous) {
        return round(nextRound(previous, SUPS, wc));
    }

    private String status(Cluster c) {
        return c.getStatusMap().get("wc");
    }

    private static Set<ExecutorId> moved(Cluster before, Cluster after) {
        return StormModelMapper.placement(after, "wc").movedComparedTo(StormModelMapper.placement(before, "wc"));
    }

    @Test
    void startsFromStormsDefaultPlacement() {
        Cluster r1 = placed(Map.of());
        Cluster reference = cluster(SUPS, new HashMap<>(), wc);
        DefaultFallback.schedule(reference, List.of(wc));
        assertEquals(slotsOf(reference, "wc"), slotsOf(r1, "wc"));
        assertTrue(status(r1).contains("placed by Storm's DefaultScheduler"), status(r1));
        assertEquals(1, recorded.size(), "the initial placement is recorded");
        // The default puts spout 1, split 3 and count 5 together (the test traffic relies on it).
        assertEquals(workerA, OtdWorld.workerOf(r1, "wc", 3));
        assertEquals(workerA, OtdWorld.workerOf(r1, "wc", 5));
        assertEquals(workerB, OtdWorld.workerOf(r1, "wc", 4));
    }

    @Test
    void movesAtMostOneExecutorPerCycleLiveBetweenTheSameWorkersAndWaitsForDataAfterTheMove() {
        Cluster r1 = placed(Map.of());
        recorded.clear();
        world.advanceSeconds(5);
        // A uses 1.8 of the node's 2 cores (share 0.9: high), B 0.2 (0.1: low): case 1, Algorithm 1.
        world.publish(r1, wc, Map.of(workerA, 1.8, workerB, 0.2), TRAFFIC);
        Cluster r2 = next(r1);
        assertEquals(Set.of(new ExecutorId(3, 3)), moved(r1, r2), status(r2));
        assertEquals(workerB, OtdWorld.workerOf(r2, "wc", 3));
        assertEquals(workerA, OtdWorld.workerOf(r2, "wc", 1), "the spout stays");
        assertEquals(slotsOf(r1, "wc").keySet(), slotsOf(r2, "wc").keySet(), "the same two workers, none new");
        assertTrue(status(r2).startsWith("nonstop otd: otd case 1: move [3,3] from " + workerA + " to " + workerB
                                         + ", expected gain 70.0 tuples/s"), status(r2));
        ConfiguredScheduler.Decision d = recorded.get(0);
        assertEquals(1, d.notice().details().get("case"));
        assertEquals("[3,3]", d.notice().details().get("executor"));
        assertEquals(70.0, d.notice().details().get("expected_gain_tuples_per_s"));
        String json = record(d).toJson();
        assertTrue(json.contains("\"status\":\"applied\""), json);
        assertTrue(json.contains("\"class\":\"high\"") && json.contains("\"class\":\"low\""), json);

        // 2 s later: within the cycle, nothing is computed even though new data arrived.
        world.advanceSeconds(2);
        world.publish(r2, wc, Map.of(workerA, 1.6, workerB, 0.3), TRAFFIC);
        Cluster r3 = next(r2);
        assertEquals(slotsOf(r2, "wc"), slotsOf(r3, "wc"));
        assertEquals("nonstop otd: next OTD round in 3.0 s", status(r3));

        // 6 s after the move: the cycle has passed but the newest windows began before the move.
        world.advanceSeconds(4);
        Cluster r4 = next(r3);
        assertEquals(slotsOf(r2, "wc"), slotsOf(r4, "wc"));
        assertTrue(status(r4).contains("began before the last move"), status(r4));

        // Windows that began after the move, A still high: the next single move (count 5 now gains 20).
        world.advanceSeconds(1);
        world.publish(r4, wc, Map.of(workerA, 1.6, workerB, 0.3), TRAFFIC);
        Cluster r5 = next(r4);
        assertEquals(Set.of(new ExecutorId(5, 5)), moved(r4, r5), status(r5));
        assertTrue(status(r5).contains("expected gain 20.0 tuples/s"), status(r5));
        assertEquals(2, registry.getMeter(OtdStormScheduler.MOVES_METER).getCount());
    }

    @Test
    void aLighterWorkerOnABusyNodeCountsAsItsNodesUseOfTheRoom() {
        wc = wordCount("wc", 4, Map.of("nonstop.scheduler", "otd"));
        Cluster r1 = round(cluster(SUPS, new HashMap<>(), wc));
        world.publish(r1, wc, Map.of(), TRAFFIC);
        world.advanceSeconds(5);
        // host1's two workers share its 2 cores: 1.5 + 0.1 leave the lighter one no room to take more.
        world.publish(r1, wc, Map.of("host1:6700", 1.5, "host1:6701", 0.1, "host2:6700", 0.2, "host2:6701", 0.2), TRAFFIC);
        world.refresh();
        Map<String, Double> shares = new TreeMap<>();
        OtdMeasurements.read(wc, r1, world.metrics, true, Long.MIN_VALUE, Map.of()).orElseThrow().snapshot().workers()
                .forEach(w -> shares.put(w.worker(), w.cpu()));
        assertEquals(Map.of("host1:6700", 1.5, "host1:6701", 0.8, "host2:6700", 0.2, "host2:6701", 0.2), shares,
                "host1: max(0.1 / (2 / 2), 1.6 / 2) for the lighter worker; host2: each its own part");
    }

    @Test
    void overloadedWorkersWithoutRoomRaiseOneLackingResourcesWarningAndMoveNothing() {
        Cluster r1 = placed(Map.of());
        recorded.clear();
        world.advanceSeconds(5);
        world.publish(r1, wc, Map.of(workerA, 1.9, workerB, 1.7), TRAFFIC);
        Cluster r2 = next(r1);
        assertEquals(slotsOf(r1, "wc"), slotsOf(r2, "wc"));
        assertTrue(status(r2).contains("otd case 2: lacking resources, no move"), status(r2));
        assertEquals(1, recorded.size(), "a warning is recorded although nothing moved");
        SchedulerDecisionRecord rec = record(recorded.get(0));
        assertEquals("warning", rec.status());
        assertEquals(List.of(), rec.moves());
        assertEquals(List.of(workerA, workerB).stream().sorted().toList(), rec.details().get("high_load_workers"));
        assertEquals(1, registry.getMeter(OtdStormScheduler.LACKING_METER).getCount());

        // Still lacking on new data: counted again, but the same warning is not recorded twice.
        world.advanceSeconds(5);
        world.publish(r2, wc, Map.of(workerA, 1.9, workerB, 1.8), TRAFFIC);
        Cluster r3 = next(r2);
        assertEquals(slotsOf(r1, "wc"), slotsOf(r3, "wc"));
        assertEquals(1, recorded.size());
        assertEquals(2, registry.getMeter(OtdStormScheduler.LACKING_METER).getCount());
    }

    @Test
    void aSecondRoundWithoutNewDataChangesNothing() {
        Cluster r1 = placed(Map.of());
        world.advanceSeconds(5);
        // Both normal (share 0.65): case 4.
        world.publish(r1, wc, Map.of(workerA, 1.3, workerB, 1.3), TRAFFIC);
        Cluster r2 = next(r1);
        assertTrue(status(r2).contains("otd case 4: no move"), status(r2));
        // A cycle later the same (still fresh) documents are all there is.
        world.advanceSeconds(6);
        Cluster r3 = next(r2);
        assertEquals(slotsOf(r2, "wc"), slotsOf(r3, "wc"));
        assertTrue(status(r3).contains("no new measurements since the last round"), status(r3));
        // Now A is hot on new data: OTD moves.
        world.publish(r3, wc, Map.of(workerA, 1.8, workerB, 0.2), TRAFFIC);
        Cluster r4 = next(r3);
        assertEquals(1, moved(r3, r4).size(), status(r4));
    }

    @Test
    void missingStaleOrStartUpMeasurementsMeanNoMoveAndSayWhy() {
        wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "otd"));
        Cluster r1 = round(cluster(SUPS, new HashMap<>(), wc));
        workerA = OtdWorld.workerOf(r1, "wc", 1);
        workerB = OtdWorld.workerOf(r1, "wc", 2);

        world.advanceSeconds(5);
        Cluster r2 = next(r1);
        assertTrue(status(r2).contains("no fresh metrics from worker " + workerA + " (none published"), status(r2));

        world.publish(r2, wc, Map.of(workerA, 1.8, workerB, 0.2), TRAFFIC);
        Cluster r3 = next(r2);
        assertTrue(status(r3).contains("has published only its start-up window"), status(r3));

        world.advanceSeconds(5);
        world.publish(r3, wc, Map.of(workerA, 1.8, workerB, 0.2), TRAFFIC);
        world.advanceSeconds(20);
        Cluster r4 = next(r3);
        assertTrue(status(r4).contains("no fresh metrics from worker " + workerA + " (stale: window ended 20 s ago"),
                   status(r4));
        assertEquals(slotsOf(r1, "wc"), slotsOf(r4, "wc"));
        assertEquals(0, registry.getMeter(OtdStormScheduler.MOVES_METER).getCount());
    }

    @Test
    void aMoveStillInProgressIsNotDecidedOn() {
        Cluster r1 = placed(Map.of());
        world.advanceSeconds(5);
        world.publish(r1, wc, Map.of(workerA, 1.8, workerB, 0.2), TRAFFIC);
        Cluster r2 = next(r1);
        assertEquals(1, moved(r1, r2).size());
        // Windows after the move, but A still lists the moved executor: its migration has not finished.
        world.advanceSeconds(6);
        world.publish(r1, wc, Map.of(workerA, 1.8, workerB, 0.2), TRAFFIC);
        Cluster r3 = next(r2);
        assertEquals(slotsOf(r2, "wc"), slotsOf(r3, "wc"));
        assertTrue(status(r3).contains("a move still in progress"), status(r3));
    }

    @Test
    void settingsComeFromStormYamlWithTopologyOverridesAndABadOneFallsBack() {
        OtdStormScheduler s = new OtdStormScheduler(world.metrics, world.now::get);
        s.prepare(new HashMap<>(Map.of(OtdSettings.HIGH_CPU_KEY, 0.95, OtdSettings.LOW_CPU_KEY, 0.9)), registry);
        otd = s;
        // storm.yaml alone (0.95 / 0.9) would class both workers low (shares 0.9 and 0.1); the topology's
        // 0.85 / 0.5 makes A high and B low, so Algorithm 1 moves.
        Cluster r1 = placed(Map.of(OtdSettings.HIGH_CPU_KEY, 0.85, OtdSettings.LOW_CPU_KEY, "0.5"));
        world.advanceSeconds(5);
        world.publish(r1, wc, Map.of(workerA, 1.8, workerB, 0.2), TRAFFIC);
        Cluster r2 = next(r1);
        assertEquals(1, moved(r1, r2).size(), status(r2));

        TopologyDetails bad = wordCount("bad", 2, Map.of("nonstop.scheduler", "otd", OtdSettings.CYCLE_KEY, -1));
        Cluster b1 = cluster(SUPS, new HashMap<>(), bad);
        s.schedule(new Topologies(bad), b1);
        Cluster b2 = nextRound(b1, SUPS, bad);
        s.schedule(new Topologies(bad), b2);
        assertEquals(slotsOf(b1, "bad"), slotsOf(b2, "bad"));
        assertTrue(b2.getStatusMap().get("bad").contains("nonstop.otd.cycle.secs must be >= 0"),
                   b2.getStatusMap().get("bad"));
    }

    @Test
    void settingsDefaultsAndOverrides() {
        OtdSettings d = OtdSettings.of(Map.of(), Map.of());
        assertEquals(5000, d.cycleMillis());
        assertEquals(io.nonstopstorm.scheduling.otd.OtdParams.DEFAULTS, d.params());
        assertTrue(d.countBackground());
        OtdSettings o = OtdSettings.of(Map.of(OtdSettings.CYCLE_KEY, 10, OtdSettings.THRESHOLD_ASC_KEY, 3),
                Map.of(OtdSettings.CYCLE_KEY, "2.5", OtdSettings.HIGH_QUEUE_KEY, 5000, OtdSettings.NODE_BACKGROUND_KEY, false,
                       OtdSettings.TAKE_LAST_KEY, "true", OtdSettings.WITHIN_NODE_KEY, false));
        assertEquals(2500, o.cycleMillis());
        assertTrue(o.params().mayTakeLastExecutor());
        assertFalse(d.params().mayTakeLastExecutor());
        assertTrue(d.params().relieveWithinNode());
        assertFalse(o.params().relieveWithinNode());
        assertEquals(3.0, o.params().thresholdAsc());
        assertEquals(5000, o.params().highQueue());
        assertFalse(o.countBackground());
        assertThrowsWithMessage(() -> OtdSettings.of(Map.of(), Map.of(OtdSettings.HIGH_QUEUE_KEY, 10.5)),
                "nonstop.otd.high.queue must be a whole number");
        assertThrowsWithMessage(() -> OtdSettings.of(Map.of(), Map.of(OtdSettings.TAKE_LAST_KEY, "yes")),
                "nonstop.otd.may.take.last.executor must be true or false");
        assertThrowsWithMessage(() -> OtdSettings.of(Map.of(), Map.of(OtdSettings.CYCLE_KEY, 0)),
                "nonstop.otd.cycle.secs must be at least 1 ms");
        assertThrowsWithMessage(() -> OtdSettings.of(Map.of(), Map.of(OtdSettings.LOW_CPU_KEY, 0.9)),
                "need 0 <= lowCpu < highCpu");
    }

    private static void assertThrowsWithMessage(Runnable r, String part) {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }

    private SchedulerDecisionRecord record(ConfiguredScheduler.Decision d) {
        SchedulerDecisionRecord rec = SchedulerDecisionRecord.of("wc", "wc", "otd", d,
                (SlotId s) -> OtdWorld.HOSTS.get(s.nodeId()) + ":" + s.port(), world.now.get());
        JSONValue.parse(rec.toJson());
        return rec;
    }
}
