package io.nonstopstorm.scheduling.zk;

import io.nonstopstorm.metrics.zk.StormZk;
import io.nonstopstorm.metrics.zk.ZkAuth;
import java.util.Map;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * A ZooKeeper client for the project's znodes outside Storm's root, built with Storm's shaded Curator
 * (on Nimbus's classpath through storm-server) from the servers in Nimbus's conf. With Storm's digest auth
 * in the conf it authenticates, and every znode it creates (parents included) is for that principal only
 * ({@link ZkAuth}, from the metrics jar in extlib).
 */
public final class ZkClients {

    private ZkClients() {
    }

    /**
     * Starts a client (it connects in the background) to {@code storm.zookeeper.servers}/{@code port}.
     *
     * @throws IllegalArgumentException if no server is configured, or the auth keys are malformed
     */
    public static CuratorFramework fromStormConf(Map<String, Object> conf) {
        String connect = StormZk.connectString(conf);
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
            .connectString(connect)
            .sessionTimeoutMs(20_000)
            .connectionTimeoutMs(5_000)
            .retryPolicy(new ExponentialBackoffRetry(200, 3));
        CuratorFramework c = ZkAuth.configure(builder, conf, null).build();
        c.start();
        return c;
    }
}
