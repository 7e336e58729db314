package io.nonstopstorm.scheduling.metricsplane;

import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.data.Stat;

/**
 * Reads every worker document under the metrics root ({@code <root>/<topology-id>/<host>-<port>}).
 * Znodes that vanish between listing and reading (a worker stopped) are simply not there.
 */
public final class ZkMetricsReader {

    /** Topology conf key of the root, as the workers use it (SCHEMA.md); Nimbus reads its own conf. */
    public static final String ROOT_KEY = "nonstop.metrics.zk.root";
    public static final String DEFAULT_ROOT = ZkPaths.METRICS;

    private final CuratorFramework client;
    private final String root;

    public ZkMetricsReader(CuratorFramework client, String root) {
        this.client = client;
        this.root = root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
    }

    public static String root(Map<String, Object> conf) {
        Object r = conf.get(ROOT_KEY);
        return r == null || r.toString().isBlank() ? DEFAULT_ROOT : r.toString().trim();
    }

    public String root() {
        return root;
    }

    /** @throws Exception when ZooKeeper cannot be read at all */
    public List<RawDocument> readAll() throws Exception {
        List<RawDocument> out = new ArrayList<>();
        for (String topology : children(root)) {
            out.addAll(readTopology(topology));
        }
        return out;
    }

    /** The documents of one topology's workers. @throws Exception when ZooKeeper cannot be read at all */
    public List<RawDocument> readTopology(String topologyId) throws Exception {
        List<RawDocument> out = new ArrayList<>();
        String dir = ZkPaths.metricsTopology(root, topologyId);
        for (String worker : children(dir)) {
            String path = dir + "/" + worker;
            Stat stat = new Stat();
            try {
                byte[] data = client.getData().storingStatIn(stat).forPath(path);
                out.add(new RawDocument(path, data == null ? "" : new String(data, StandardCharsets.UTF_8),
                                        stat.getMzxid()));
            } catch (KeeperException.NoNodeException e) {
                // the worker went away after the listing
            }
        }
        return out;
    }

    private List<String> children(String path) throws Exception {
        try {
            List<String> c = new ArrayList<>(client.getChildren().forPath(path));
            c.sort(null);
            return c;
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }
}
