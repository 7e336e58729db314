package io.nonstopstorm.scheduling.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryOneTime;
import org.apache.storm.testing.InProcessZookeeper;
import org.apache.storm.utils.Utils;

/** An in-process ZooKeeper, a client on it, and a Storm conf that points schedulers at it. */
public final class InProcessZk implements AutoCloseable {
    private final InProcessZookeeper zk;
    private final CuratorFramework client;
    private final Map<String, Object> conf;

    private InProcessZk(InProcessZookeeper zk) {
        this.zk = zk;
        this.conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put("storm.zookeeper.servers", List.of("127.0.0.1"));
        conf.put("storm.zookeeper.port", (int) zk.getPort());
        this.client = CuratorFrameworkFactory.newClient("127.0.0.1:" + zk.getPort(), new RetryOneTime(100));
        client.start();
    }

    public static InProcessZk start() throws Exception {
        return new InProcessZk(new InProcessZookeeper());
    }

    public CuratorFramework client() {
        return client;
    }

    /** Storm's defaults plus this ZooKeeper's address; callers may add to it. */
    public Map<String, Object> conf() {
        return conf;
    }

    @Override
    public void close() throws Exception {
        client.close();
        zk.close();
    }
}
