package io.nonstopstorm.scheduling.plan;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.data.Stat;

/**
 * The project's znodes for plans and decisions, outside Storm's own root:
 * {@code /nonstop/plans/<topology-name>} (written by the controller) and
 * {@code /nonstop/decisions/<topology-name>} (written here). Uses Storm's shaded Curator with the
 * ZooKeeper servers of Nimbus's conf.
 */
public final class ZkPlanChannel implements AutoCloseable {
    public static final String PLANS = "/nonstop/plans";
    public static final String DECISIONS = "/nonstop/decisions";

    /** A plan znode's content with its data version and last-modified time. */
    public record VersionedPlan(String json, int version, long modifiedAtMs) {
    }

    private final CuratorFramework client;

    private ZkPlanChannel(CuratorFramework client) {
        this.client = client;
    }

    /** Connects (in the background) to the servers named by storm.zookeeper.servers/port. */
    public static ZkPlanChannel fromStormConf(Map<String, Object> conf) {
        @SuppressWarnings("unchecked")
        List<String> servers = (List<String>) conf.get("storm.zookeeper.servers");
        if (servers == null || servers.isEmpty()) {
            throw new IllegalArgumentException("storm.zookeeper.servers is not set");
        }
        Object port = conf.getOrDefault("storm.zookeeper.port", 2181);
        String connect = servers.stream().map(s -> s + ":" + port).collect(Collectors.joining(","));
        CuratorFramework c = CuratorFrameworkFactory.builder()
            .connectString(connect)
            .sessionTimeoutMs(20_000)
            .connectionTimeoutMs(5_000)
            .retryPolicy(new ExponentialBackoffRetry(200, 3))
            .build();
        c.start();
        return new ZkPlanChannel(c);
    }

    public Optional<VersionedPlan> plan(String topologyName) throws Exception {
        String path = PLANS + "/" + topologyName;
        Stat stat = new Stat();
        try {
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            return Optional.of(new VersionedPlan(new String(data == null ? new byte[0] : data, StandardCharsets.UTF_8),
                                                 stat.getVersion(), stat.getMtime()));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    /** Data version of the plan znode, without reading it (null if absent). */
    public Integer planVersion(String topologyName) throws Exception {
        Stat stat = client.checkExists().forPath(PLANS + "/" + topologyName);
        return stat == null ? null : stat.getVersion();
    }

    public Optional<String> decision(String topologyName) throws Exception {
        try {
            byte[] data = client.getData().forPath(DECISIONS + "/" + topologyName);
            return Optional.of(new String(data, StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    public void writeDecision(String topologyName, String json) throws Exception {
        String path = DECISIONS + "/" + topologyName;
        byte[] data = json.getBytes(StandardCharsets.UTF_8);
        try {
            client.setData().forPath(path, data);
        } catch (KeeperException.NoNodeException e) {
            client.create().creatingParentsIfNeeded().forPath(path, data);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
