package io.nonstopstorm.metrics.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import io.nonstopstorm.metrics.zk.ZkAuth;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryNTimes;
import org.apache.storm.shade.org.apache.zookeeper.CreateMode;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.apache.storm.shade.org.apache.zookeeper.data.Stat;
import org.apache.storm.shade.org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against a real in-process ZooKeeper server that the test stops and restarts on the same port. */
class ZkPublisherTest {
    private static final String ROOT = "/nonstop/metrics";
    private static final String PATH = ROOT + "/topo-1/127.0.0.11-6700";
    private static final String PAYLOAD = "nonstop:s3cret";

    @TempDir
    Path dir;
    private int port;
    private ServerCnxnFactory factory;
    private ZooKeeperServer server;
    private ZkPublisher publisher;
    private CuratorFramework reader;

    private void startServer(File data) throws Exception {
        server = new ZooKeeperServer(data, data, 2000);
        factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port), 50);
        factory.startup(server);
    }

    private void stopServer() {
        factory.shutdown();
        server.shutdown();
    }

    private static void await(String what, BooleanSupplier ok) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!ok.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    private String read() throws Exception {
        Stat st = reader.checkExists().forPath(PATH);
        return st == null ? null : new String(reader.getData().forPath(PATH), StandardCharsets.UTF_8);
    }

    private void startAll() throws Exception {
        startAll(null);
    }

    /** With auth, the publisher and the reader authenticate with it. */
    private void startAll(ZkAuth auth) throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        startServer(dir.resolve("zk").toFile());
        publisher = new ZkPublisher("127.0.0.1:" + port, 4000, 2000, PATH, auth, ROOT);
        publisher.start();
        reader = client(auth == null ? null : PAYLOAD);
    }

    private CuratorFramework client(String payload) throws InterruptedException {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + port)
            .sessionTimeoutMs(4000).connectionTimeoutMs(2000).retryPolicy(new RetryNTimes(20, 200));
        if (payload != null) {
            b.authorization("digest", payload.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework c = b.build();
        c.start();
        c.blockUntilConnected();
        return c;
    }

    private static ZkAuth auth(boolean worldRead) {
        return ZkAuth.fromConf(Map.of(ZkAuth.AUTH_SCHEME, "digest", ZkAuth.AUTH_PAYLOAD, PAYLOAD,
            ZkAuth.METRICS_WORLD_READ, worldRead)).orElseThrow();
    }

    @AfterEach
    void tearDown() {
        if (publisher != null) {
            publisher.close();
        }
        if (reader != null) {
            reader.close();
        }
        if (factory != null) {
            stopServer();
        }
    }

    @Test
    void publishesAnEphemeralNodeAndReplacesItsContent() throws Exception {
        startAll();
        await("first publish", () -> publisher.publish("{\"n\":1}"));
        assertEquals("{\"n\":1}", read());
        assertTrue(publisher.publish("{\"n\":2}"));
        assertEquals("{\"n\":2}", read());
        assertTrue(reader.checkExists().forPath(PATH).getEphemeralOwner() != 0, "ephemeral");
        publisher.close();
        publisher = null;
        assertNull(read(), "a stopped worker removes its node");
    }

    /** Polls the node until it holds {@code doc} (a read that fails while ZooKeeper recovers counts as not yet). */
    private void awaitReaderSees(String doc) throws Exception {
        await("reader sees " + doc, () -> {
            try {
                return doc.equals(read());
            } catch (Exception e) {
                return false;
            }
        });
    }

    @Test
    void republishesByItselfAfterZooKeeperRestarts() throws Exception {
        startAll();
        await("first publish", () -> publisher.publish("{\"n\":1}"));
        stopServer();
        long t0 = System.nanoTime();
        assertFalse(publisher.publish("{\"n\":2}"), "ZooKeeper is down");
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "a failed publish does not stall the worker");
        startServer(dir.resolve("zk").toFile());  // same data: sessions survive
        await("publish after restart", () -> publisher.publish("{\"n\":3}"));
        awaitReaderSees("{\"n\":3}");
    }

    @Test
    void recreatesItsNodeWhenTheSessionWasLost() throws Exception {
        startAll();
        await("first publish", () -> publisher.publish("{\"n\":1}"));
        stopServer();
        startServer(dir.resolve("zk-fresh").toFile());  // an empty server: every session and node is gone
        await("publish on the fresh server", () -> publisher.publish("{\"n\":4}"));
        awaitReaderSees("{\"n\":4}");
    }

    @Test
    void takesOverANodeLeftByAnEarlierWorkerOnTheSamePort() throws Exception {
        startAll();
        reader.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
            .forPath(PATH, "old".getBytes(StandardCharsets.UTF_8));
        long readerSession = reader.getZookeeperClient().getZooKeeper().getSessionId();
        await("publish", () -> publisher.publish("{\"n\":5}"));
        Stat st = reader.checkExists().forPath(PATH);
        assertTrue(st.getEphemeralOwner() != readerSession, "now owned by the publisher's session");
        assertEquals("{\"n\":5}", read());
    }

    @Test
    void withCredentialsTheDocumentAndItsParentsAreTheClustersAlone() throws Exception {
        startAll(auth(false));
        await("first publish", () -> publisher.publish("{\"n\":1}"));
        assertEquals("{\"n\":1}", read());
        List<ACL> only = List.of(new ACL(ZooDefs.Perms.ALL, auth(false).principal()));
        for (String p : List.of("/nonstop", ROOT, ROOT + "/topo-1", PATH)) {
            assertEquals(only, reader.getACL().forPath(p), p);
        }
        try (CuratorFramework stranger = client(null); CuratorFramework wrong = client("nonstop:guess")) {
            for (CuratorFramework c : List.of(stranger, wrong)) {
                assertThrows(KeeperException.NoAuthException.class, () -> c.getData().forPath(PATH));
                assertThrows(KeeperException.NoAuthException.class,
                    () -> c.create().forPath(ROOT + "/topo-1/forged", "{}".getBytes(StandardCharsets.UTF_8)));
                assertThrows(KeeperException.NoAuthException.class, () -> c.create().forPath("/nonstop/plans"));
            }
        }
    }

    @Test
    void metricsDocumentsAreWorldReadableWhenTheConfSaysSo() throws Exception {
        startAll(auth(true));
        await("first publish", () -> publisher.publish("{\"n\":1}"));
        try (CuratorFramework stranger = client(null)) {
            assertEquals("{\"n\":1}", new String(stranger.getData().forPath(PATH), StandardCharsets.UTF_8));
            assertThrows(KeeperException.NoAuthException.class,
                () -> stranger.setData().forPath(PATH, "{}".getBytes(StandardCharsets.UTF_8)));
            assertThrows(KeeperException.NoAuthException.class, () -> stranger.create().forPath("/nonstop/plans"));
        }
    }
}
