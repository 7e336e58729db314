package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryOneTime;
import org.apache.storm.testing.InProcessZookeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The plan watch against a real (in-process) ZooKeeper. */
class PlanWatchTest {
    private InProcessZookeeper zk;
    private CuratorFramework client;
    private final BlockingQueue<String> written = new LinkedBlockingQueue<>();

    @BeforeEach
    void start() throws Exception {
        zk = new InProcessZookeeper();
        client = CuratorFrameworkFactory.newClient("127.0.0.1:" + zk.getPort(), new RetryOneTime(100));
        client.start();
        client.blockUntilConnected(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        zk.close();
    }

    private void write(String name, String json) throws Exception {
        String path = ZkPaths.PLANS + "/" + name;
        if (client.checkExists().forPath(path) == null) {
            client.create().creatingParentsIfNeeded().forPath(path, json.getBytes(StandardCharsets.UTF_8));
        } else {
            client.setData().forPath(path, json.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The next name the watch called back with, or null if none within 10 s. */
    private String next() throws InterruptedException {
        return written.poll(10, TimeUnit.SECONDS);
    }

    @Test
    void newAndRewrittenPlansCallBackWithTheirTopologyButPlansFromBeforeDoNot() throws Exception {
        write("old", "{}");
        try (PlanWatch watch = PlanWatch.start(client, written::add)) {
            assertTrue(watch.awaitInitialized(10, TimeUnit.SECONDS));
            write("wc", "{\"request_id\": \"a\"}");
            assertEquals("wc", next());
            write("wc", "{\"request_id\": \"b\"}");
            assertEquals("wc", next());
            write("other", "{}");
            assertEquals("other", next());
            assertTrue(written.isEmpty(), "no call back for the plan that existed before: " + written);
        }
    }

    @Test
    void aCallbackThatThrowsDoesNotStopTheWatch() throws Exception {
        try (PlanWatch watch = PlanWatch.start(client, name -> {
            written.add(name);
            throw new IllegalStateException("boom");
        })) {
            assertTrue(watch.awaitInitialized(10, TimeUnit.SECONDS));
            write("a", "{}");
            assertEquals("a", next());
            write("b", "{}");
            assertEquals("b", next());
        }
    }

    @Test
    void onlyDirectChildrenOfThePlansRootAreTopologies() {
        assertEquals("wc", PlanWatch.topologyName("/nonstop/plans/wc"));
        for (String p : List.of("/nonstop/plans", "/nonstop/plans/", "/nonstop/plans/wc/x", "/nonstop/decisions/wc")) {
            assertNull(PlanWatch.topologyName(p), p);
        }
        assertNull(PlanWatch.topologyName(null));
    }
}
