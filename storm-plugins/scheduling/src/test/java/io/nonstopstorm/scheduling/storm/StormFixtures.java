package io.nonstopstorm.scheduling.storm;

import org.apache.storm.generated.StormTopology;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.INimbus;
import org.apache.storm.scheduler.IScheduler;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SchedulerAssignmentImpl;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;
import org.apache.storm.scheduler.resource.normalization.ResourceMetrics;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds real Storm scheduler objects for adapter tests (the storm-server test-jar is not available). */
final class StormFixtures {

    private StormFixtures() {
    }

    /** The few INimbus calls a Cluster makes: host names and slot lists. */
    static final class TestNimbus implements INimbus {
        @Override
        public void prepare(Map<String, Object> conf, String schedulerLocalDir) {
        }

        @Override
        public Collection<WorkerSlot> allSlotsAvailableForScheduling(Collection<SupervisorDetails> supervisors,
                                                                     Topologies topologies, Set<String> topologiesMissingAssignments) {
            List<WorkerSlot> slots = new ArrayList<>();
            for (SupervisorDetails s : supervisors) {
                for (Number p : s.getAllPorts()) {
                    slots.add(new WorkerSlot(s.getId(), p.intValue()));
                }
            }
            return slots;
        }

        @Override
        public void assignSlots(Topologies topologies, Map<String, Collection<WorkerSlot>> newSlotsByTopologyId) {
        }

        @Override
        public String getHostName(Map<String, SupervisorDetails> existingSupervisors, String nodeId) {
            SupervisorDetails s = existingSupervisors.get(nodeId);
            return s == null ? null : s.getHost();
        }

        @Override
        public IScheduler getForcedScheduler() {
            return null;
        }
    }

    static class Spout extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("line"));
        }
    }

    static class Bolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
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
        b.setSpout("spout", new Spout(), 2);
        b.setBolt("split", new Bolt(), 2).shuffleGrouping("spout");
        b.setBolt("count", new Bolt(), 2).fieldsGrouping("split", new Fields("word"));
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
        return new Cluster(new TestNimbus(), new ResourceMetrics(new StormMetricsRegistry()), supervisors,
                assignments, new Topologies(topologies), new HashMap<>(Utils.readDefaultConfig()));
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
