package io.nonstopstorm.scheduling.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.IScheduler;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryOneTime;
import org.apache.storm.testing.InProcessZookeeper;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An in-process ZooKeeper for a test class, a client on it, and a Storm conf that points schedulers at it:
 * {@code @RegisterExtension static final InProcessZk ZK = new InProcessZk();} starts it before the class's
 * tests and, after them, cleans up the schedulers prepared here and stops it.
 */
public final class InProcessZk implements BeforeAllCallback, AfterAllCallback {
    private final List<IScheduler> prepared = new ArrayList<>();
    private InProcessZookeeper zk;
    private CuratorFramework client;
    private Map<String, Object> conf;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        zk = new InProcessZookeeper();
        conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put("storm.zookeeper.servers", List.of("127.0.0.1"));
        conf.put("storm.zookeeper.port", (int) zk.getPort());
        client = CuratorFrameworkFactory.newClient("127.0.0.1:" + zk.getPort(), new RetryOneTime(100));
        client.start();
    }

    public CuratorFramework client() {
        return client;
    }

    /** Storm's defaults plus this ZooKeeper's address; callers may add to it. */
    public Map<String, Object> conf() {
        return conf;
    }

    /** {@code s}, prepared as Nimbus prepares it, on this ZooKeeper's conf. */
    public <S extends IScheduler> S prepare(S s) {
        s.prepare(conf, new StormMetricsRegistry());
        prepared.add(s);
        return s;
    }

    /** Creates the znode (and its parents) or overwrites its data. */
    public void put(String path, String data) throws Exception {
        byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
        if (client.checkExists().forPath(path) == null) {
            client.create().creatingParentsIfNeeded().forPath(path, bytes);
        } else {
            client.setData().forPath(path, bytes);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        prepared.forEach(IScheduler::cleanup);
        client.close();
        zk.close();
    }
}
