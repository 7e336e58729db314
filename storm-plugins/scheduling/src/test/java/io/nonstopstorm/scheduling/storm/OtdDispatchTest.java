package io.nonstopstorm.scheduling.storm;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.nextRound;
import static io.nonstopstorm.scheduling.storm.StormFixtures.slotsOf;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.plan.ZkPlanChannel;
import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryOneTime;
import org.apache.storm.shade.org.apache.zookeeper.data.Stat;
import org.apache.storm.testing.InProcessZookeeper;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/** {@code nonstop.scheduler: otd} through Nimbus's dispatcher: decision records in a real (in-process) ZooKeeper. */
class OtdDispatchTest {

    private static final Map<String, SupervisorDetails> SUPS = OtdWorld.supervisors();
    // Spout 1's move would gain most (150 - 10) but spouts never move; split 3's gains 100 - 10 - 20.
    private static final Map<List<Integer>, Double> TRAFFIC = Map.of(List.of(1, 3), 10.0, List.of(1, 4), 150.0,
            List.of(2, 3), 100.0, List.of(2, 4), 100.0, List.of(3, 5), 20.0, List.of(4, 6), 80.0);

    @Test
    void theDispatcherRunsOtdAndRecordsItsWarningsAndMovesWithTheReasonAndExpectedGain() throws Exception {
        try (InProcessZookeeper zk = new InProcessZookeeper();
             CuratorFramework client = CuratorFrameworkFactory.newClient("127.0.0.1:" + zk.getPort(), new RetryOneTime(100))) {
            client.start();
            Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
            conf.put("storm.zookeeper.servers", List.of("127.0.0.1"));
            conf.put("storm.zookeeper.port", (int) zk.getPort());
            OtdWorld world = new OtdWorld();
            NonstopScheduler nimbus = new NonstopScheduler(world.metrics, world.now::get);
            nimbus.prepare(conf, new StormMetricsRegistry());
            try {
                TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", " OTD "));
                Cluster r1 = cluster(SUPS, new HashMap<>(), wc);
                nimbus.schedule(new Topologies(wc), r1);
                assertTrue(r1.getUnassignedExecutors(wc).isEmpty());
                String a = OtdWorld.workerOf(r1, "wc", 1);
                String b = OtdWorld.workerOf(r1, "wc", 2);
                assertEquals("otd", record(client).get("scheduler"));
                assertEquals(0, version(client), "the initial placement");
                world.publish(r1, wc, Map.of(), TRAFFIC);

                // Both overloaded: a warning record, nothing moved.
                world.advanceSeconds(5);
                world.publish(r1, wc, Map.of(a, 1.9, b, 1.9), TRAFFIC);
                Cluster r2 = nextRound(r1, SUPS, wc);
                nimbus.schedule(new Topologies(wc), r2);
                assertEquals(slotsOf(r1, "wc"), slotsOf(r2, "wc"));
                Map<String, Object> warning = record(client);
                assertEquals(1, version(client));
                assertEquals("warning", warning.get("status"));
                assertTrue(((String) warning.get("reason")).contains("lacking resources"), warning.toString());
                assertEquals(2, ((Number) details(warning).get("case")).intValue());

                // B has room again: one move, recorded with what moved, why and the expected gain.
                world.advanceSeconds(5);
                world.publish(r2, wc, Map.of(a, 1.9, b, 0.3), TRAFFIC);
                Cluster r3 = nextRound(r2, SUPS, wc);
                nimbus.schedule(new Topologies(wc), r3);
                Map<String, Object> move = record(client);
                assertEquals(2, version(client));
                assertEquals("applied", move.get("status"));
                assertEquals(List.of(Map.of("executor", "[3,3]", "from", a, "to", b)), move.get("moves"));
                assertEquals(1, ((Number) details(move).get("case")).intValue());
                assertEquals(70.0, ((Number) details(move).get("expected_gain_tuples_per_s")).doubleValue(), 1e-9);
                assertEquals(2, ((List<?>) details(move).get("workers")).size());
                assertTrue(((String) move.get("reason")).startsWith("otd case 1: move [3,3]"), move.toString());
            } finally {
                nimbus.cleanup();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> record(CuratorFramework client) throws Exception {
        byte[] data = client.getData().forPath(ZkPaths.schedulerDecision("wc"));
        return (Map<String, Object>) JSONValue.parse(new String(data, StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(Map<String, Object> record) {
        return (Map<String, Object>) record.get("details");
    }

    private static int version(CuratorFramework client) throws Exception {
        Stat stat = client.checkExists().forPath(ZkPaths.schedulerDecision("wc"));
        return stat == null ? -1 : stat.getVersion();
    }
}
