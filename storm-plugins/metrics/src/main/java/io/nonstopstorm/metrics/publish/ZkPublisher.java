package io.nonstopstorm.metrics.publish;

import io.nonstopstorm.metrics.zk.ZkAuth;
import java.nio.charset.StandardCharsets;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.framework.state.ConnectionState;
import org.apache.storm.shade.org.apache.curator.retry.RetryNTimes;
import org.apache.storm.shade.org.apache.zookeeper.CreateMode;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one ephemeral znode holding the worker's latest document. Each publish makes sure the node exists
 * and belongs to this client's session: after a ZooKeeper restart or a session expiry Curator reconnects
 * on its own, and the next publish recreates the node. A node left by a dead earlier worker on the same
 * port (its session not yet expired) is replaced rather than written into, so it cannot vanish later.
 * A failed publish is logged once per outage and retried by the next window, never blocking long.
 * With credentials, the client authenticates and the node (and any parent it creates) gets the suite's ACL.
 */
public final class ZkPublisher implements DocumentSink {
    private static final Logger LOG = LoggerFactory.getLogger(ZkPublisher.class);

    private final String connect;
    private final int sessionTimeoutMs;
    private final int connectionTimeoutMs;
    private final String path;
    private final ZkAuth auth;
    private final String metricsRoot;
    private CuratorFramework client;
    private volatile boolean failing;

    /** An unauthenticated publisher (an open ZooKeeper). */
    public ZkPublisher(String connect, int sessionTimeoutMs, int connectionTimeoutMs, String path) {
        this(connect, sessionTimeoutMs, connectionTimeoutMs, path, null, null);
    }

    /**
     * @param auth the cluster's credentials, or null for an open ZooKeeper
     * @param metricsRoot the metrics documents' root, world-readable below it if {@code auth} says so
     */
    public ZkPublisher(String connect, int sessionTimeoutMs, int connectionTimeoutMs, String path, ZkAuth auth,
                       String metricsRoot) {
        this.connect = connect;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.connectionTimeoutMs = connectionTimeoutMs;
        this.path = path;
        this.auth = auth;
        this.metricsRoot = metricsRoot;
    }

    @Override
    public synchronized void start() {
        if (client != null) {
            return;
        }
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
            .connectString(connect)
            .sessionTimeoutMs(sessionTimeoutMs)
            .connectionTimeoutMs(connectionTimeoutMs)
            // One quick retry per operation: the next window is the real retry, so a publish never stalls.
            .retryPolicy(new RetryNTimes(1, 200));
        client = (auth == null ? builder : auth.apply(builder, metricsRoot)).build();
        client.getConnectionStateListenable().addListener((c, state) -> onState(state));
        client.start();
    }

    private void onState(ConnectionState state) {
        if (state == ConnectionState.LOST || state == ConnectionState.SUSPENDED) {
            LOG.warn("metrics publisher for {}: ZooKeeper connection {}", path, state);
        } else if (state == ConnectionState.RECONNECTED) {
            LOG.info("metrics publisher for {}: ZooKeeper reconnected", path);
        }
    }

    @Override
    public synchronized boolean publish(String json) {
        if (client == null) {
            throw new IllegalStateException("publisher not started");
        }
        byte[] data = json.getBytes(StandardCharsets.UTF_8);
        try {
            if (!client.getZookeeperClient().isConnected()) {
                return failed("not connected to " + connect, null);
            }
            long session = client.getZookeeperClient().getZooKeeper().getSessionId();
            Stat stat = client.checkExists().forPath(path);
            if (stat != null && stat.getEphemeralOwner() == session) {
                client.setData().forPath(path, data);
            } else {
                if (stat != null) {
                    deleteQuietly();
                }
                client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
            }
            if (failing) {
                LOG.info("metrics publisher for {}: publishing again", path);
                failing = false;
            }
            return true;
        } catch (Exception e) {
            return failed(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private boolean failed(String why, Exception e) {
        if (!failing) {
            LOG.warn("metrics publisher for {}: cannot publish ({}); retrying every window", path, why);
            if (e != null && !(e instanceof KeeperException)) {
                LOG.debug("publish failure", e);
            }
            failing = true;
        }
        return false;
    }

    private void deleteQuietly() {
        try {
            client.delete().forPath(path);
        } catch (Exception e) {
            // gone already, or ZooKeeper away: the create that follows decides
        }
    }

    @Override
    public synchronized void close() {
        if (client == null) {
            return;
        }
        try {
            if (client.getZookeeperClient().isConnected()) {
                Stat stat = client.checkExists().forPath(path);
                if (stat != null && stat.getEphemeralOwner() == client.getZookeeperClient().getZooKeeper().getSessionId()) {
                    deleteQuietly();
                }
            }
        } catch (Exception e) {
            // closing the session removes the ephemeral node anyway
        }
        client.close();
        client = null;
    }
}
