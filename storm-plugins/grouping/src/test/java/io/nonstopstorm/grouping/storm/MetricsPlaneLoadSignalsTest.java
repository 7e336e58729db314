package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.signal.NoLoadSignals;
import io.nonstopstorm.grouping.signal.DelegationPolicy;
import io.nonstopstorm.grouping.signal.SignalEdge;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryNTimes;
import org.apache.storm.shade.org.apache.zookeeper.CreateMode;
import org.apache.storm.shade.org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.storm.task.WorkerTopologyContext;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole path against a real in-process ZooKeeper: documents published where the metrics plane puts
 * them move virtual workers in the CG groupings of two sources of the same JVM, identically.
 */
class MetricsPlaneLoadSignalsTest {
    private static final GlobalStreamId STREAM = new GlobalStreamId("split", "default");
    private static final List<Integer> TARGETS = List.of(10, 11, 12, 13);
    private static final long SLOT_MS = 600;

    @TempDir
    Path dir;
    private ServerCnxnFactory factory;
    private ZooKeeperServer server;
    private CuratorFramework writer;

    @AfterEach
    void stop() {
        MetricsPlaneLoadSignals.closeAll();
        if (writer != null) {
            writer.close();
        }
        if (factory != null) {
            factory.shutdown();
            server.shutdown();
        }
    }

    @Test
    void withoutZooKeeperSettingsThereAreNoSignals() {
        SignalEdge edge = new SignalEdge("a:default->b", new DelegationPolicy(0.7, 0.9, 1000), "t", "b", List.of(1), Map.of());
        assertSame(NoLoadSignals.INSTANCE, new MetricsPlaneLoadSignals().open(edge));
    }

    @Test
    void publishedLoadsMoveVirtualWorkersFromTheBusyToTheIdleWorkerInEverySource() throws Exception {
        server = new ZooKeeperServer(dir.toFile(), dir.toFile(), 2000);
        factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 20);
        factory.startup(server);
        int port = factory.getLocalPort();
        writer = CuratorFrameworkFactory.newClient("127.0.0.1:" + port, new RetryNTimes(3, 100));
        writer.start();

        Map<String, Object> conf = new HashMap<>();
        conf.put("storm.zookeeper.servers", List.of("127.0.0.1"));
        conf.put("storm.zookeeper.port", port);
        conf.put("nonstop.metrics.period.secs", 1);
        conf.put(MetricsPlaneLoadSignals.POLL_MS, 50);
        ConsistentGroupingStreamGrouping first = grouping();
        ConsistentGroupingStreamGrouping second = grouping();
        first.prepare(context(conf), STREAM, TARGETS);
        second.prepare(context(conf), STREAM, TARGETS);
        int[] before = route(first, 3);
        route(second, 4);

        // task 10 (worker 0) saturated, task 13 (worker 3) nearly idle, the others inside the band
        long deadline = System.currentTimeMillis() + 15_000;
        long seq = 0;
        long windowEnd = System.currentTimeMillis();
        while (System.currentTimeMillis() < deadline && route(first, 3)[0] >= before[0] - 40) {
            seq++;
            windowEnd += 200;
            publish("/nonstop/metrics/topo-1/127.0.0.11-6700",
                    LoadDocuments.document(100, seq, windowEnd, 0.2, "count", Map.of(10, 0.99, 11, 0.8)));
            publish("/nonstop/metrics/topo-1/127.0.0.12-6701",
                    LoadDocuments.document(200, seq, windowEnd, 0.2, "count", Map.of(12, 0.8, 13, 0.05)));
            Thread.sleep(Math.max(0, windowEnd - System.currentTimeMillis()));
        }
        int[] after = route(first, 3);
        assertTrue(after[0] < before[0] - 40 && after[3] > before[3] + 40,
                "worker 0 lost and worker 3 gained load: before " + java.util.Arrays.toString(before)
                        + " after " + java.util.Arrays.toString(after));
        assertEquals(before[1] + before[2], after[1] + after[2], 60, "the in-band workers are left alone");
        Thread.sleep(3 * SLOT_MS); // both sources have read the whole log by the next tuple
        int[] a = route(first, 3);
        int[] b = route(second, 4);
        assertEquals(java.util.Arrays.toString(a), java.util.Arrays.toString(b), "both sources route alike");
    }

    private void publish(String path, String json) throws Exception {
        byte[] data = json.getBytes(StandardCharsets.UTF_8);
        if (writer.checkExists().forPath(path) == null) {
            writer.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
        } else {
            writer.setData().forPath(path, data);
        }
    }

    private static ConsistentGroupingStreamGrouping grouping() {
        return new ConsistentGroupingStreamGrouping(List.of("word"), 0.2, 5, 0.7, 0.9, SLOT_MS,
                MetricsPlaneLoadSignals.class.getName());
    }

    /** Tuples per worker index out of 1 000 routed with 200 distinct keys (a fresh router's loads differ; the table matters). */
    private static int[] route(ConsistentGroupingStreamGrouping grouping, int sourceTask) {
        int[] perWorker = new int[TARGETS.size()];
        for (int i = 0; i < 1_000; i++) {
            int task = grouping.chooseTasks(sourceTask, List.of("w" + (i % 200), i)).get(0);
            perWorker[task - 10]++;
        }
        return perWorker;
    }

    private static WorkerTopologyContext context(Map<String, Object> conf) {
        Map<Integer, String> taskToComponent = new HashMap<>();
        taskToComponent.put(3, "split");
        taskToComponent.put(4, "split");
        TARGETS.forEach(t -> taskToComponent.put(t, "count"));
        Map<String, List<Integer>> componentTasks = Map.of("split", List.of(3, 4), "count", TARGETS);
        Map<String, Map<String, Fields>> fields = Map.of("split", Map.of("default", new Fields("word", "n")),
                "count", Map.of("default", new Fields("word", "count")));
        return new WorkerTopologyContext(new StormTopology(), conf, taskToComponent, componentTasks, fields,
                "topo-1", null, null, 6700, List.of(3, 4), new HashMap<>(), new HashMap<>());
    }
}
