package io.nonstopstorm.grouping.storm;

import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The metrics documents of one topology: the children of {@code <metrics root>/<topology id>} in ZooKeeper. */
final class ZkLoadReportSource implements LoadReportSource {
    private final CuratorFramework client;
    private final String directory;

    ZkLoadReportSource(CuratorFramework client, String directory) {
        this.client = client;
        this.directory = directory;
    }

    @Override
    public List<String> read() throws Exception {
        List<String> children;
        try {
            children = client.getChildren().forPath(directory);
        } catch (KeeperException.NoNodeException e) {
            return List.of(); // no worker has published yet
        }
        List<String> documents = new ArrayList<>(children.size());
        for (String child : children) {
            try {
                documents.add(new String(client.getData().forPath(directory + "/" + child), StandardCharsets.UTF_8));
            } catch (KeeperException.NoNodeException e) {
                // the worker went away between listing and reading
            }
        }
        return documents;
    }
}
