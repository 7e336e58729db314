package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.storm.NonstopScheduler;
import io.nonstopstorm.scheduling.storm.baseline.OfflineNimbus;
import io.nonstopstorm.scheduling.storm.baseline.PlaceholderComponents;
import io.nonstopstorm.scheduling.testing.InProcessZk;
import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scheduler against a real (in-process) ZooKeeper and real Storm scheduler objects; every test also
 * runs on the dispatcher ({@link NonstopScheduler}), which must follow plans for topologies without
 * {@code nonstop.scheduler} exactly as the plan-following scheduler does.
 */
class PlanFollowingSchedulerTest {
    private static InProcessZk zk;
    private static CuratorFramework client;
    private static Map<String, Object> conf;
    private static final List<IScheduler> CREATED = new ArrayList<>();
    private static final String PLAN_FOLLOWING = "plan-following";
    private static final String NONSTOP = "nonstop";

    @BeforeAll
    static void startZk() throws Exception {
        zk = InProcessZk.start();
        conf = zk.conf();
        client = zk.client();
    }

    @AfterAll
    static void stopZk() throws Exception {
        CREATED.forEach(IScheduler::cleanup);
        zk.close();
    }

    /** spout [1,1], relay [2,2]..[5,5], acker [6,6]; two workers. */
    static TopologyDetails relay(String name, String id) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sequence", new PlaceholderComponents.Spout(), 1);
        b.setBolt("relay", new PlaceholderComponents.Bolt(), 4).shuffleGrouping("sequence");
        Map<ExecutorDetails, String> execs = new HashMap<>();
        String[] comps = {"sequence", "relay", "relay", "relay", "relay", "__acker"};
        for (int t = 1; t <= comps.length; t++) {
            execs.put(new ExecutorDetails(t, t), comps[t - 1]);
        }
        Map<String, Object> tc = new HashMap<>(Utils.readDefaultConfig());
        tc.put("topology.name", name);
        return new TopologyDetails(id, tc, b.createTopology(), 2, execs, "tester");
    }

    static Map<String, SupervisorDetails> supervisors() {
        Map<String, SupervisorDetails> m = new LinkedHashMap<>();
        for (int i = 1; i <= 2; i++) {
            m.put("sup" + i, new SupervisorDetails("sup" + i, "127.0.0.1" + i, null, List.of(6700, 6701)));
        }
        return m;
    }

    static Cluster cluster(Map<String, SchedulerAssignment> assignments, TopologyDetails... tds) {
        return new Cluster(new OfflineNimbus(), new ResourceMetrics(new StormMetricsRegistry()), supervisors(), assignments,
                           new Topologies(tds), new HashMap<>(conf));
    }

    static Cluster nextRound(Cluster prev, TopologyDetails... tds) {
        Map<String, SchedulerAssignment> copy = new HashMap<>();
        prev.getAssignments().forEach((k, v) -> copy.put(k, new SchedulerAssignmentImpl(v)));
        return cluster(copy, tds);
    }

    static Map<WorkerSlot, Set<ExecutorDetails>> slots(Cluster c, String id) {
        Map<WorkerSlot, Set<ExecutorDetails>> m = new HashMap<>();
        c.getAssignmentById(id).getSlotToExecutors().forEach((s, e) -> m.put(s, Set.copyOf(e)));
        return m;
    }

    /** A relay executor, the slot it is on, and the other slot of a two-slot placement. */
    private record RelayMove(ExecutorDetails executor, WorkerSlot from, WorkerSlot to) {
        static RelayMove of(TopologyDetails td, Map<WorkerSlot, Set<ExecutorDetails>> placement) {
            for (Map.Entry<WorkerSlot, Set<ExecutorDetails>> e : placement.entrySet()) {
                for (ExecutorDetails x : e.getValue()) {
                    if (td.getExecutorToComponent().get(x).equals("relay")) {
                        WorkerSlot other = placement.keySet().stream().filter(w -> !w.equals(e.getKey()))
                                .findFirst().orElseThrow();
                        return new RelayMove(x, e.getKey(), other);
                    }
                }
            }
            throw new AssertionError("no relay executor in " + placement);
        }
    }

    private static void writePlan(String name, String json) throws Exception {
        String path = ZkPaths.PLANS + "/" + name;
        if (client.checkExists().forPath(path) == null) {
            client.create().creatingParentsIfNeeded().forPath(path, json.getBytes(StandardCharsets.UTF_8));
        } else {
            client.setData().forPath(path, json.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String decision(String name) throws Exception {
        return new String(client.getData().forPath(ZkPaths.DECISIONS + "/" + name), StandardCharsets.UTF_8);
    }

    private static IScheduler scheduler(String kind) {
        IScheduler s = kind.equals(NONSTOP) ? new NonstopScheduler() : new PlanFollowingScheduler(() -> 42L);
        s.prepare(conf, new StormMetricsRegistry());
        CREATED.add(s);
        return s;
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void movesOneExecutorTouchingOnlyTheTwoSlotsInvolvedAndRecordsTheDecision(String kind) throws Exception {
        String name = "relay-a-" + kind;
        TopologyDetails td = relay(name, name + "-1-100");
        IScheduler s = scheduler(kind);
        Cluster first = cluster(new HashMap<>(), td);
        s.schedule(new Topologies(td), first);
        Map<WorkerSlot, Set<ExecutorDetails>> before = slots(first, td.getId());
        assertEquals(2, before.size(), "no plan yet: the default placed it on two workers");

        // Move some relay executor to the other worker.
        RelayMove move = RelayMove.of(td, before);
        WorkerSlot from = move.from();
        WorkerSlot to = move.to();
        ExecutorDetails moved = move.executor();
        String host = supervisors().get(to.getNodeId()).getHost();
        writePlan(name, "{\"request_id\":\"req-1\",\"placement\":{\"[" + moved.getStartTask() + ","
                             + moved.getEndTask() + "]\":\"" + host + ":" + to.getPort() + "\"}}");
        Cluster second = nextRound(first, td);
        s.schedule(new Topologies(td), second);
        Map<WorkerSlot, Set<ExecutorDetails>> after = slots(second, td.getId());
        assertEquals(before.keySet(), after.keySet(), "same two workers");
        assertTrue(after.get(to).contains(moved) && !after.get(from).contains(moved));
        assertEquals(before.get(from).size() - 1, after.get(from).size());
        String d = decision(name);
        assertTrue(d.contains("\"status\":\"applied\"") && d.contains("\"request_id\":\"req-1\"")
                   && d.contains("\"topology_id\":\"" + name + "-1-100\"") && d.contains("\"plan_version\":0"), d);
        assertTrue(second.getStatusMap().get(td.getId()).contains("applied"), second.getStatusMap().toString());

        // Later rounds neither re-apply the plan nor let the default "even out" the planned placement.
        Cluster third = nextRound(second, td);
        s.schedule(new Topologies(td), third);
        assertEquals(after, slots(third, td.getId()));
        // A fresh scheduler (Nimbus restart) respects the stored decision.
        Cluster fourth = nextRound(third, td);
        scheduler(kind).schedule(new Topologies(td), fourth);
        assertEquals(after, slots(fourth, td.getId()));
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void aMoveOntoAHostWhoseAgentIsOffIsRejectedWithTheReasonAndNothingMoves(String kind) throws Exception {
        String name = "relay-agent-" + kind;
        TopologyDetails td = relay(name, name + "-1-100");
        IScheduler s = scheduler(kind);
        Cluster first = cluster(new HashMap<>(), td);
        s.schedule(new Topologies(td), first);
        Map<WorkerSlot, Set<ExecutorDetails>> before = slots(first, td.getId());
        RelayMove move = RelayMove.of(td, before);
        WorkerSlot to = move.to();
        ExecutorDetails moved = move.executor();
        String host = supervisors().get(to.getNodeId()).getHost();
        String record = ZkPaths.AGENTS + "/" + host;
        client.create().creatingParentsIfNeeded().forPath(record, ("{\"storm_version\":\"2.8.3\",\"verified\":false,"
            + "\"missing\":[\"advice WorkerState.refreshConnections not woven\"]}").getBytes(StandardCharsets.UTF_8));
        try {
            writePlan(name, "{\"placement\":{\"[" + moved.getStartTask() + "," + moved.getEndTask() + "]\":\""
                            + host + ":" + to.getPort() + "\"}}");
            Cluster second = nextRound(first, td);
            s.schedule(new Topologies(td), second);
            assertEquals(before, slots(second, td.getId()));
            String d = decision(name);
            assertTrue(d.contains("\"status\":\"rejected\"") && d.contains("its migration agent is off")
                       && d.contains("advice WorkerState.refreshConnections not woven"), d);
        } finally {
            client.delete().forPath(record);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void aPlanNamingAMissingExecutorOrPortIsRejectedAndNothingMoves(String kind) throws Exception {
        String name = "relay-b-" + kind;
        TopologyDetails td = relay(name, name + "-1-100");
        IScheduler s = scheduler(kind);
        Cluster first = cluster(new HashMap<>(), td);
        s.schedule(new Topologies(td), first);
        Map<WorkerSlot, Set<ExecutorDetails>> before = slots(first, td.getId());

        writePlan(name, "{\"placement\":{\"[99,99]\":\"127.0.0.11:6700\"}}");
        Cluster second = nextRound(first, td);
        s.schedule(new Topologies(td), second);
        assertEquals(before, slots(second, td.getId()));
        String d = decision(name);
        assertTrue(d.contains("\"status\":\"rejected\"") && d.contains("executor [99,99] is not an executor of " + name + "-1-100"), d);

        writePlan(name, "{\"placement\":{\"[2,2]\":\"127.0.0.11:9999\"}}");
        Cluster third = nextRound(second, td);
        s.schedule(new Topologies(td), third);
        assertEquals(before, slots(third, td.getId()));
        d = decision(name);
        assertTrue(d.contains("\"plan_version\":1") && d.contains("port 9999 is not a worker slot"), d);

        writePlan(name, "garbage");
        Cluster fourth = nextRound(third, td);
        s.schedule(new Topologies(td), fourth);
        assertEquals(before, slots(fourth, td.getId()));
        assertTrue(decision(name).contains("not valid JSON"));
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void topologiesWithoutAPlanAreScheduledByTheDefault(String kind) {
        TopologyDetails td = relay("relay-c-" + kind, "relay-c-" + kind + "-1-100");
        Cluster c = cluster(new HashMap<>(), td);
        scheduler(kind).schedule(new Topologies(td), c);
        assertEquals(6, c.getAssignmentById(td.getId()).getExecutors().size());
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void withoutZooKeeperItStillSchedulesLikeTheDefault(String kind) {
        Map<String, Object> bad = new HashMap<>(conf);
        bad.remove("storm.zookeeper.servers");
        IScheduler s = kind.equals(NONSTOP) ? new NonstopScheduler() : new PlanFollowingScheduler(() -> 0L);
        s.prepare(bad, new StormMetricsRegistry());
        TopologyDetails td = relay("relay-d", "relay-d-1-100");
        Cluster c = cluster(new HashMap<>(), td);
        s.schedule(new Topologies(td), c);
        assertEquals(6, c.getAssignmentById(td.getId()).getExecutors().size());
    }
}
