package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.scheduling.zk.ZkClients;
import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.data.Stat;

/**
 * The project's znodes for plans and decisions, outside Storm's own root:
 * {@code /nonstop/plans/<topology-name>} (written by the controller) and
 * {@code /nonstop/decisions/<topology-name>} (written here), and the placing schedulers' own decisions
 * {@code /nonstop/decisions/<topology-name>.scheduler}. Uses Storm's shaded Curator with the ZooKeeper
 * servers of Nimbus's conf.
 */
public final class ZkPlanChannel implements AutoCloseable {
    /** A plan znode's content with its data version and last-modified time. */
    public record VersionedPlan(String json, int version, long modifiedAtMs) {
    }

    private final CuratorFramework client;

    /** Uses (and on {@link #close} closes) this client. */
    public ZkPlanChannel(CuratorFramework client) {
        this.client = client;
    }

    /** Connects (in the background) to the servers named by storm.zookeeper.servers/port. */
    public static ZkPlanChannel fromStormConf(Map<String, Object> conf) {
        return new ZkPlanChannel(ZkClients.fromStormConf(conf));
    }

    /** The client, for other readers of the project's znodes that should share the connection. */
    public CuratorFramework client() {
        return client;
    }

    public Optional<VersionedPlan> plan(String topologyName) throws Exception {
        String path = ZkPaths.plan(topologyName);
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
        Stat stat = client.checkExists().forPath(ZkPaths.plan(topologyName));
        return stat == null ? null : stat.getVersion();
    }

    public Optional<String> decision(String topologyName) throws Exception {
        try {
            byte[] data = client.getData().forPath(ZkPaths.decision(topologyName));
            return Optional.of(new String(data, StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    /** A supervisor agent's status record {@code /nonstop/agents/<host>}, if published. */
    public Optional<String> agentRecord(String host) throws Exception {
        try {
            byte[] data = client.getData().forPath(ZkPaths.agent(host));
            return Optional.of(new String(data == null ? new byte[0] : data, StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    public void writeDecision(String topologyName, String json) throws Exception {
        write(ZkPaths.decision(topologyName), json);
    }

    /**
     * What a placing scheduler (not a plan) last did to a topology: {@code /nonstop/decisions/<name>.scheduler}.
     * A sibling of the plan decision, so neither overwrites the other; Storm forbids '.' in topology names,
     * so the suffix cannot clash with another topology's decision.
     */
    public void writeSchedulerDecision(String topologyName, String json) throws Exception {
        write(ZkPaths.schedulerDecision(topologyName), json);
    }

    private void write(String path, String json) throws Exception {
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
