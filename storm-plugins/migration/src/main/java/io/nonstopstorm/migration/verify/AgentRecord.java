package io.nonstopstorm.migration.verify;

import io.nonstopstorm.metrics.zk.StormZk;
import io.nonstopstorm.metrics.zk.ZkAuth;
import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.storm.shade.org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.storm.shade.org.apache.zookeeper.CreateMode;

/**
 * The supervisor's agent status in ZooKeeper: {@code /nonstop/agents/<host>} (ephemeral: it goes with
 * the supervisor JVM, and Curator re-creates it after a session loss). The plan-following scheduler
 * refuses live moves onto or off a host whose record says {@code "verified": false}.
 */
public final class AgentRecord implements AutoCloseable {
    private final CuratorFramework client;
    private final PersistentNode node;

    private AgentRecord(CuratorFramework client, PersistentNode node) {
        this.client = client;
        this.node = node;
    }

    public static String path(String host) {
        return ZkPaths.agent(host);
    }

    /** Starts publishing {@code json} for {@code host}; the write happens once the client connects. */
    public static AgentRecord publish(Map<String, Object> conf, String host, String json) {
        CuratorFramework c = client(conf);
        PersistentNode n = new PersistentNode(c, CreateMode.EPHEMERAL, false, path(host),
                                              json.getBytes(StandardCharsets.UTF_8));
        n.start();
        return new AgentRecord(c, n);
    }

    /** A client for the suite's znodes, from {@code storm.zookeeper.servers}/{@code port} of the daemon's conf. */
    static CuratorFramework client(Map<String, Object> conf) {
        String connect = StormZk.connectString(conf);
        // Authenticated, and created for the suite's digest principal only, when the conf sets ZooKeeper auth.
        CuratorFramework c = ZkAuth.configure(CuratorFrameworkFactory.builder()
            .connectString(connect)
            .sessionTimeoutMs(20_000)
            .connectionTimeoutMs(5_000)
            .retryPolicy(new ExponentialBackoffRetry(200, 3)), conf, null)
            .build();
        c.start();
        return c;
    }

    @Override
    public void close() {
        try {
            node.close();
        } catch (Exception ignored) {
            // the session's end removes the ephemeral node anyway
        }
        client.close();
    }
}
