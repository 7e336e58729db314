package io.nonstopstorm.ui;

import io.nonstopstorm.metrics.zk.StormZk;
import io.nonstopstorm.metrics.zk.ZkAuth;
import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryNTimes;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.data.Stat;

/**
 * Reads the decision documents from ZooKeeper with Storm's shaded Curator, authenticated with the conf's digest
 * credentials ({@link ZkAuth}). It only reads. A read fails fast when ZooKeeper is away (no retries: the page asks
 * again in a few seconds) and every failure becomes a {@link MovesUnavailableException} with the reason.
 */
public final class ZkMoveSource implements MoveSource, AutoCloseable {

    private final CuratorFramework client;
    private final String connect;

    private ZkMoveSource(CuratorFramework client, String connect) {
        this.client = client;
        this.connect = connect;
    }

    /**
     * A started source for {@code storm.zookeeper.servers}/{@code port}, or one that explains why there is none
     * (no servers, malformed auth keys). Never throws: the placement is served without moves then.
     */
    public static MoveSource fromStormConf(Map<String, Object> conf) {
        String connect;
        try {
            connect = StormZk.connectString(conf);
        } catch (IllegalArgumentException e) {
            return MoveSource.unavailable(e.getMessage());
        }
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
            .connectString(connect)
            .sessionTimeoutMs(20_000)
            .connectionTimeoutMs(2_000)
            .retryPolicy(new RetryNTimes(0, 0));
        try {
            builder = ZkAuth.configure(builder, conf, null);
        } catch (IllegalArgumentException e) {
            return MoveSource.unavailable("ZooKeeper credentials: " + e.getMessage());
        }
        CuratorFramework client = builder.build();
        client.start();
        return new ZkMoveSource(client, connect);
    }

    @Override
    public List<DecisionDocs> read() throws MovesUnavailableException {
        if (!client.getZookeeperClient().isConnected()) {
            throw new MovesUnavailableException("ZooKeeper (" + connect + ") is not reachable");
        }
        try {
            List<String> names = new ArrayList<>();
            for (String child : childrenOrNone(ZkPaths.DECISIONS)) {
                // Placing schedulers' records sit beside the plan decisions; topology names cannot contain a dot.
                if (!child.endsWith(ZkPaths.SCHEDULER_DECISION_SUFFIX)) {
                    names.add(child);
                }
            }
            names.sort(null);
            List<DecisionDocs> out = new ArrayList<>();
            for (String name : names) {
                String decision = dataOrNull(ZkPaths.decision(name));
                if (decision == null) {
                    continue; // deleted between the listing and the read
                }
                Stat plan = client.checkExists().forPath(ZkPaths.plan(name));
                out.add(new DecisionDocs(name, decision, plan == null ? -1 : plan.getVersion(),
                    plan == null ? -1 : plan.getMtime(), dataOrNull(ZkPaths.controllerDecision(name))));
            }
            return out;
        } catch (KeeperException.NoAuthException e) {
            throw new MovesUnavailableException("ZooKeeper refused to read " + e.getPath()
                + ": this server's storm.zookeeper.auth.payload is not the cluster's");
        } catch (Exception e) {
            throw new MovesUnavailableException("ZooKeeper (" + connect + "): " + e);
        }
    }

    private List<String> childrenOrNone(String path) throws Exception {
        try {
            return client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    private String dataOrNull(String path) throws Exception {
        try {
            return new String(client.getData().forPath(path), StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
