package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.metrics.zk.ZkAuth;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryOneTime;
import org.apache.storm.testing.InProcessZookeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The adapter against a real (in-process) ZooKeeper whose documents carry the suite's digest ACL. */
class ZkMoveSourceTest {

    private static final String PAYLOAD = "nonstop:zk-move-source-test-secret";
    private static InProcessZookeeper zk;
    private static CuratorFramework owner;

    @BeforeAll
    static void writeDocuments() throws Exception {
        zk = new InProcessZookeeper();
        owner = ZkAuth.configure(CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + zk.getPort())
            .retryPolicy(new RetryOneTime(100)), conf(PAYLOAD), null).build();
        owner.start();
        create("/nonstop/plans/wc", "{\"request_id\":\"r-1\",\"placement\":{}}");
        create("/nonstop/decisions/wc", RecordedMovesTest.decision("applied", 0, 10_400, RecordedMovesTest.ONE_MOVE));
        create("/nonstop/decisions/wc.scheduler", "{\"scheduler\":\"otd\"}");
        create("/nonstop/decisions/other", RecordedMovesTest.decision("unchanged", 0, 1, "[]"));
        create("/nonstop/controller/decisions/wc", RecordedMovesTest.CONTROLLER);
    }

    @AfterAll
    static void stop() throws Exception {
        owner.close();
        zk.close();
    }

    private static void create(String path, String json) throws Exception {
        owner.create().creatingParentsIfNeeded().forPath(path, json.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, Object> conf(String payload) {
        Map<String, Object> conf = new HashMap<>();
        conf.put("storm.zookeeper.servers", List.of("127.0.0.1"));
        conf.put("storm.zookeeper.port", zk == null ? 0 : (int) zk.getPort());
        conf.put(ZkAuth.AUTH_SCHEME, "digest");
        conf.put(ZkAuth.AUTH_PAYLOAD, payload);
        return conf;
    }

    /** Reads until the client has connected (it connects in the background) or the deadline passes. */
    private static List<DecisionDocs> readConnected(MoveSource source) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return source.read();
            } catch (MovesUnavailableException e) {
                if (!e.getMessage().contains("not reachable") || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50); // between polls; the deadline above bounds the wait
            }
        }
    }

    @Test
    void readsEachTopologysDecisionPlanAndControllerRecordWithTheClustersCredentials() throws Exception {
        MoveSource source = ZkMoveSource.fromStormConf(conf(PAYLOAD));
        try {
            List<DecisionDocs> docs = readConnected(source);
            assertEquals(List.of("other", "wc"), docs.stream().map(DecisionDocs::topology).toList(),
                "scheduler records are not plan decisions");
            DecisionDocs wc = docs.get(1);
            assertEquals(0, wc.planVersion());
            assertTrue(wc.planWrittenAtMs() > 0);
            assertEquals(RecordedMovesTest.CONTROLLER, wc.controllerDecision());
            assertEquals("[3-3]", RecordedMoves.of(wc).get(0).executor());
            assertEquals(-1, docs.get(0).planVersion());
            assertNull(docs.get(0).controllerDecision());
        } finally {
            ((ZkMoveSource) source).close();
        }
    }

    @Test
    void wrongCredentialsMakeTheMovesUnavailableWithTheReason() throws Exception {
        MoveSource source = ZkMoveSource.fromStormConf(conf("nonstop:not-the-cluster-password"));
        try {
            MovesUnavailableException e = assertThrows(MovesUnavailableException.class, () -> readConnected(source));
            assertTrue(e.getMessage().contains("refused") && e.getMessage().contains(ZkAuth.AUTH_PAYLOAD), e.getMessage());
        } finally {
            ((ZkMoveSource) source).close();
        }
    }

    @Test
    void anUnreachableZooKeeperOrABadConfigIsAReasonNotAFailure() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Map<String, Object> away = conf(PAYLOAD);
        away.put("storm.zookeeper.port", closed);
        MoveSource source = ZkMoveSource.fromStormConf(away);
        try {
            MovesUnavailableException e = assertThrows(MovesUnavailableException.class, source::read);
            assertTrue(e.getMessage().contains("127.0.0.1:" + closed + ") is not reachable"), e.getMessage());
        } finally {
            ((ZkMoveSource) source).close();
        }
        Map<String, Object> badScheme = conf(PAYLOAD);
        badScheme.put(ZkAuth.AUTH_SCHEME, "sasl");
        assertTrue(assertThrows(MovesUnavailableException.class, () -> ZkMoveSource.fromStormConf(badScheme).read())
            .getMessage().startsWith("ZooKeeper credentials: "));
        Map<String, Object> none = new HashMap<>();
        assertEquals("storm.zookeeper.servers is not set",
            assertThrows(MovesUnavailableException.class, () -> ZkMoveSource.fromStormConf(none).read()).getMessage());
    }
}
