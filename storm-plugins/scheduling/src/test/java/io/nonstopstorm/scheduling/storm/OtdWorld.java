package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.metricsplane.RawDocument;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * A clock and a metrics plane for OTD adapter tests: the workers' documents (schema v1 JSON, read by the
 * real {@link ZkSchedulingMetrics}) are written from the topology's current assignment, with the CPU per
 * worker and the executor-pair traffic the test chooses. Node figures: 2 CPUs, busy = the topology's own
 * load (no background).
 */
final class OtdWorld {

    static final String ROOT = "/nonstop/metrics";
    static final long PERIOD_S = 5;
    static final Map<String, String> HOSTS = Map.of("sup1", "host1", "sup2", "host2");

    final AtomicLong now = new AtomicLong(1_000_000_000L);
    final Map<String, RawDocument> published = new TreeMap<>();
    final ZkSchedulingMetrics metrics = new ZkSchedulingMetrics(() -> List.copyOf(published.values()), ROOT, now::get,
            OptionalDouble.of(2000));
    private final Map<String, Long> seq = new HashMap<>();
    private long version;

    /** Every worker of the topology publishes a window ending now: CPU per worker "host:port", tuples/s per task pair. */
    void publish(Cluster cluster, TopologyDetails td, Map<String, Double> cpuByWorker, Map<List<Integer>, Double> taskTraffic) {
        publish(cluster, td, cpuByWorker, taskTraffic, Map.of());
    }

    void publish(Cluster cluster, TopologyDetails td, Map<String, Double> cpuByWorker, Map<List<Integer>, Double> taskTraffic,
                 Map<String, Long> queueByWorker) {
        SchedulerAssignment a = cluster.getAssignmentById(td.getId());
        for (Map.Entry<WorkerSlot, Collection<ExecutorDetails>> e : a.getSlotToExecutors().entrySet()) {
            String host = HOSTS.get(e.getKey().getNodeId());
            int port = e.getKey().getPort();
            String worker = host + ":" + port;
            List<Map<String, Object>> executors = new ArrayList<>();
            List<Map<String, Object>> traffic = new ArrayList<>();
            long queueLeft = queueByWorker.getOrDefault(worker, 0L);
            for (ExecutorDetails x : e.getValue()) {
                String component = td.getExecutorToComponent().get(x);
                if (component.startsWith("__")) {
                    continue;
                }
                Map<String, Object> ex = new LinkedHashMap<>();
                ex.put("id", List.of(x.getStartTask(), x.getEndTask()));
                ex.put("component", component);
                ex.put("cpu_cores", 0.01);
                ex.put("child_cpu_cores", 0.0);
                ex.put("queue_length", queueLeft);
                queueLeft = 0;
                executors.add(ex);
                taskTraffic.forEach((pair, rate) -> {
                    if (pair.get(0) >= x.getStartTask() && pair.get(0) <= x.getEndTask()) {
                        traffic.add(Map.of("src_task", pair.get(0), "dst_task", pair.get(1), "tuples_per_s", rate));
                    }
                });
            }
            double cpu = cpuByWorker.getOrDefault(worker, 0.05);
            long n = seq.merge(worker, 1L, Long::sum);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("schema", "nonstop.metrics.worker");
            doc.put("version", 1);
            doc.put("topology_id", td.getId());
            doc.put("worker", Map.of("host", host, "port", port, "pid", 100 + port, "cpu_cores", cpu));
            doc.put("window", Map.of("end_ms", now.get(), "seconds", (double) PERIOD_S, "seq", n, "period_s", PERIOD_S));
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("cpu_count", 2);
            node.put("cpu_mhz", null);
            node.put("cpu_busy_cores", cpu);
            node.put("net", List.of());
            doc.put("node", node);
            doc.put("executors", executors);
            doc.put("traffic", traffic);
            published.put(ROOT + "/" + td.getId() + "/" + host + "-" + port,
                    new RawDocument(ROOT + "/" + td.getId() + "/" + host + "-" + port, JSONValue.toJSONString(doc), ++version));
        }
    }

    /** The dispatcher reads the metrics plane at the start of each Nimbus round; tests do it here. */
    void refresh() {
        metrics.refresh(HOSTS);
    }

    void advanceSeconds(double s) {
        now.addAndGet(Math.round(s * 1000));
    }

    static String workerOf(Cluster cluster, String topologyId, int task) {
        for (Map.Entry<ExecutorDetails, WorkerSlot> e : cluster.getAssignmentById(topologyId).getExecutorToSlot().entrySet()) {
            if (e.getKey().getStartTask() == task) {
                return HOSTS.get(e.getValue().getNodeId()) + ":" + e.getValue().getPort();
            }
        }
        throw new IllegalArgumentException("no executor with task " + task);
    }

    static Map<String, SupervisorDetails> supervisors() {
        return StormFixtures.supervisors(2, 2);
    }
}
