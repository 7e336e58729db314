package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.storm.baseline.OfflineNimbus;
import io.nonstopstorm.scheduling.storm.baseline.PlaceholderComponents;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.IScheduler;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SchedulerAssignmentImpl;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;
import org.apache.storm.scheduler.resource.normalization.ResourceMetrics;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds real Storm scheduler objects for adapter tests (the storm-server test-jar is not available). */
final class StormFixtures {

    private StormFixtures() {
    }

    /** Supervisors {@code sup1..supN} on hosts {@code host1..}, ports 6700.. */
    static Map<String, SupervisorDetails> supervisors(int count, int portsEach) {
        Map<String, SupervisorDetails> m = new LinkedHashMap<>();
        for (int i = 1; i <= count; i++) {
            List<Number> ports = new ArrayList<>();
            for (int p = 0; p < portsEach; p++) {
                ports.add(6700 + p);
            }
            m.put("sup" + i, new SupervisorDetails("sup" + i, "host" + i, null, ports));
        }
        return m;
    }

    /**
     * Word count: spout(2) -> split(2) -> count(2) plus one {@code __acker} executor. Tasks: spout 1-2,
     * split 3-4, count 5-6, acker 7.
     */
    static TopologyDetails wordCount(String id, int workers, Map<String, Object> extraConf) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new PlaceholderComponents.Spout(), 2);
        b.setBolt("split", new PlaceholderComponents.Bolt(), 2).shuffleGrouping("spout");
        b.setBolt("count", new PlaceholderComponents.Bolt(), 2).fieldsGrouping("split", new Fields("value"));
        StormTopology topology = b.createTopology();
        Map<ExecutorDetails, String> executors = new HashMap<>();
        int task = 1;
        for (String c : List.of("spout", "spout", "split", "split", "count", "count", "__acker")) {
            executors.put(new ExecutorDetails(task, task), c);
            task++;
        }
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put("topology.name", id);
        conf.putAll(extraConf);
        return new TopologyDetails(id, conf, topology, workers, executors, "tester");
    }

    static Cluster cluster(Map<String, SupervisorDetails> supervisors, Map<String, SchedulerAssignment> assignments,
                           TopologyDetails... topologies) {
        return new Cluster(new OfflineNimbus(), new ResourceMetrics(new StormMetricsRegistry()), supervisors,
                assignments, new Topologies(topologies), new HashMap<>(Utils.readDefaultConfig()));
    }

    /** {@code s}, prepared as Nimbus prepares it, with a copy of {@code nimbusConf}. */
    static <S extends IScheduler> S prepared(S s, Map<String, Object> nimbusConf) {
        s.prepare(new HashMap<>(nimbusConf), new StormMetricsRegistry());
        return s;
    }

    /** The next Nimbus round: a fresh Cluster that starts from {@code previous}'s assignments. */
    static Cluster nextRound(Cluster previous, Map<String, SupervisorDetails> supervisors, TopologyDetails... topologies) {
        Map<String, SchedulerAssignment> copy = new HashMap<>();
        previous.getAssignments().forEach((k, v) -> copy.put(k, new SchedulerAssignmentImpl(v)));
        return cluster(supervisors, copy, topologies);
    }

    static Map<WorkerSlot, Set<ExecutorDetails>> slotsOf(Cluster cluster, String topologyId) {
        Map<WorkerSlot, Set<ExecutorDetails>> m = new HashMap<>();
        SchedulerAssignment a = cluster.getAssignmentById(topologyId);
        if (a != null) {
            a.getSlotToExecutors().forEach((s, e) -> m.put(s, Set.copyOf(e)));
        }
        return m;
    }
}
