package io.nonstopstorm.scheduling.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.plan.ZkPlanChannel;
import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryOneTime;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.apache.storm.shade.org.apache.zookeeper.data.Id;
import org.apache.storm.testing.InProcessZookeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The scheduler's ZooKeeper client with Storm's digest auth in the conf, against a real (in-process) ZooKeeper. */
class ZkClientsTest {
    private static final String PAYLOAD = "nonstop:s3cret";
    // ZooKeeper's digest of PAYLOAD, as in the metrics module's and the Python tests.
    private static final List<ACL> ONLY = List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest",
        "nonstop:F6N1rtgBik8KxU2s1GFldtQv84c=")));

    private InProcessZookeeper zk;
    private ZkPlanChannel channel;

    @BeforeEach
    void start() throws Exception {
        zk = new InProcessZookeeper();
        channel = new ZkPlanChannel(ZkClients.fromStormConf(Map.of(
            "storm.zookeeper.servers", List.of("127.0.0.1"), "storm.zookeeper.port", (int) zk.getPort(),
            "storm.zookeeper.auth.scheme", "digest", "storm.zookeeper.auth.payload", PAYLOAD)));
        channel.client().blockUntilConnected(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        channel.close();
        zk.close();
    }

    private CuratorFramework client(String payload) throws InterruptedException {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder()
            .connectString("127.0.0.1:" + zk.getPort()).retryPolicy(new RetryOneTime(100));
        if (payload != null) {
            b.authorization("digest", payload.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework c = b.build();
        c.start();
        c.blockUntilConnected(30, TimeUnit.SECONDS);
        return c;
    }

    @Test
    void decisionsAndTheirParentsAreTheClustersAloneAndItReadsThePlansItsPrincipalWrote() throws Exception {
        channel.writeDecision("wc", "{\"status\": \"applied\"}");
        try (CuratorFramework owner = client(PAYLOAD)) {
            for (String p : List.of("/nonstop", ZkPaths.DECISIONS, ZkPaths.DECISIONS + "/wc")) {
                assertEquals(ONLY, owner.getACL().forPath(p), p);
            }
            owner.create().creatingParentsIfNeeded().withACL(ONLY, true).forPath(ZkPaths.PLANS + "/wc",
                "{}".getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(channel.plan("wc").isPresent());
        try (CuratorFramework stranger = client(null); CuratorFramework wrong = client("nonstop:guess")) {
            for (CuratorFramework c : List.of(stranger, wrong)) {
                assertThrows(KeeperException.NoAuthException.class,
                    () -> c.setData().forPath(ZkPaths.PLANS + "/wc", "{}".getBytes(StandardCharsets.UTF_8)));
                assertThrows(KeeperException.NoAuthException.class,
                    () -> c.create().forPath(ZkPaths.PLANS + "/new", "{}".getBytes(StandardCharsets.UTF_8)));
                assertThrows(KeeperException.NoAuthException.class,
                    () -> c.getData().forPath(ZkPaths.DECISIONS + "/wc"));
            }
        }
    }

    @Test
    void malformedAuthKeysAreRefusedAtStart() {
        assertThrows(IllegalArgumentException.class, () -> ZkClients.fromStormConf(Map.of(
            "storm.zookeeper.servers", List.of("127.0.0.1"), "storm.zookeeper.auth.scheme", "sasl",
            "storm.zookeeper.auth.payload", PAYLOAD)));
    }
}
