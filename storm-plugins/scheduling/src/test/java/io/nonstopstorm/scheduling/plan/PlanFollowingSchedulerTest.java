package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.state.HandoffLimits;
import io.nonstopstorm.scheduling.storm.NonstopScheduler;
import io.nonstopstorm.scheduling.storm.baseline.OfflineNimbus;
import io.nonstopstorm.scheduling.storm.baseline.PlaceholderComponents;
import io.nonstopstorm.scheduling.testing.InProcessZk;
import io.nonstopstorm.wire.ZkPaths;
import java.nio.charset.StandardCharsets;
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
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scheduler against a real (in-process) ZooKeeper and real Storm scheduler objects; every test also
 * runs on the dispatcher ({@link NonstopScheduler}), which must follow plans for topologies without
 * {@code nonstop.scheduler} exactly as the plan-following scheduler does.
 */
class PlanFollowingSchedulerTest {
    @RegisterExtension
    static final InProcessZk ZK = new InProcessZk();
    private static final String PLAN_FOLLOWING = "plan-following";
    private static final String NONSTOP = "nonstop";

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
                           new Topologies(tds), new HashMap<>(ZK.conf()));
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
        ZK.put(ZkPaths.PLANS + "/" + name, json);
    }

    private static String decision(String name) throws Exception {
        return new String(ZK.client().getData().forPath(ZkPaths.DECISIONS + "/" + name), StandardCharsets.UTF_8);
    }

    private static IScheduler scheduler(String kind) {
        return ZK.prepare(kind.equals(NONSTOP) ? new NonstopScheduler() : new PlanFollowingScheduler(() -> 42L));
    }

    /** A relay topology, the scheduler under test, and the default's first placement of it (no plan yet). */
    private record Relay(String name, TopologyDetails td, IScheduler scheduler, Cluster first,
                         Map<WorkerSlot, Set<ExecutorDetails>> before) {
        static Relay placed(String kind, String name) {
            TopologyDetails td = relay(name, name + "-1-100");
            IScheduler s = PlanFollowingSchedulerTest.scheduler(kind);
            Cluster first = cluster(new HashMap<>(), td);
            s.schedule(new Topologies(td), first);
            return new Relay(name, td, s, first, slots(first, td.getId()));
        }

        /** The next Nimbus round after {@code previous}, scheduled by {@code s}. */
        Cluster round(IScheduler s, Cluster previous) {
            Cluster next = nextRound(previous, td);
            s.schedule(new Topologies(td), next);
            return next;
        }

        Cluster round(Cluster previous) {
            return round(scheduler, previous);
        }

        Map<WorkerSlot, Set<ExecutorDetails>> slotsIn(Cluster c) {
            return slots(c, td.getId());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void movesOneExecutorTouchingOnlyTheTwoSlotsInvolvedAndRecordsTheDecision(String kind) throws Exception {
        Relay r = Relay.placed(kind, "relay-a-" + kind);
        Map<WorkerSlot, Set<ExecutorDetails>> before = r.before();
        assertEquals(2, before.size(), "no plan yet: the default placed it on two workers");

        // Move some relay executor to the other worker.
        RelayMove move = RelayMove.of(r.td(), before);
        WorkerSlot from = move.from();
        WorkerSlot to = move.to();
        ExecutorDetails moved = move.executor();
        String host = supervisors().get(to.getNodeId()).getHost();
        writePlan(r.name(), "{\"request_id\":\"req-1\",\"placement\":{\"[" + moved.getStartTask() + ","
                             + moved.getEndTask() + "]\":\"" + host + ":" + to.getPort() + "\"}}");
        Cluster second = r.round(r.first());
        Map<WorkerSlot, Set<ExecutorDetails>> after = r.slotsIn(second);
        assertEquals(before.keySet(), after.keySet(), "same two workers");
        assertTrue(after.get(to).contains(moved) && !after.get(from).contains(moved));
        assertEquals(before.get(from).size() - 1, after.get(from).size());
        String d = decision(r.name());
        assertTrue(d.contains("\"status\":\"applied\"") && d.contains("\"request_id\":\"req-1\"")
                   && d.contains("\"topology_id\":\"" + r.td().getId() + "\"") && d.contains("\"plan_version\":0"), d);
        assertTrue(second.getStatusMap().get(r.td().getId()).contains("applied"), second.getStatusMap().toString());

        // Later rounds neither re-apply the plan nor let the default "even out" the planned placement.
        Cluster third = r.round(second);
        assertEquals(after, r.slotsIn(third));
        // A fresh scheduler (Nimbus restart) respects the stored decision.
        assertEquals(after, r.slotsIn(r.round(scheduler(kind), third)));
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void aMoveOntoAHostWhoseAgentIsOffIsRejectedWithTheReasonAndNothingMoves(String kind) throws Exception {
        Relay r = Relay.placed(kind, "relay-agent-" + kind);
        RelayMove move = RelayMove.of(r.td(), r.before());
        WorkerSlot to = move.to();
        ExecutorDetails moved = move.executor();
        String host = supervisors().get(to.getNodeId()).getHost();
        String record = ZkPaths.AGENTS + "/" + host;
        ZK.put(record, "{\"storm_version\":\"2.8.3\",\"verified\":false,"
            + "\"missing\":[\"advice WorkerState.refreshConnections not woven\"]}");
        try {
            writePlan(r.name(), "{\"placement\":{\"[" + moved.getStartTask() + "," + moved.getEndTask() + "]\":\""
                            + host + ":" + to.getPort() + "\"}}");
            assertEquals(r.before(), r.slotsIn(r.round(r.first())));
            String d = decision(r.name());
            assertTrue(d.contains("\"status\":\"rejected\"") && d.contains("its migration agent is off")
                       && d.contains("advice WorkerState.refreshConnections not woven"), d);
        } finally {
            ZK.client().delete().forPath(record);
        }
    }

    /** A worker's metrics document with one executor whose state was measured (only what the rule reads). */
    private static String stateDoc(String topologyId, String host, int port, ExecutorDetails e, long bytes,
                                   boolean overLimit) {
        return "{\"schema\":\"nonstop.metrics.worker\",\"version\":1,\"topology_id\":\"" + topologyId + "\","
               + "\"worker\":{\"host\":\"" + host + "\",\"port\":" + port + "},\"executors\":[{\"id\":["
               + e.getStartTask() + "," + e.getEndTask() + "],\"state\":{\"bytes\":" + bytes + ",\"over_limit\":"
               + overLimit + ",\"measured_at_ms\":1000}}]}";
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void aMoveOfAStateMeasuredOverTheLimitIsRefusedBeforeTheSwitchAndAppliedOnceItIsWithin(String kind)
        throws Exception {
        Relay r = Relay.placed(kind, "relay-state-" + kind);
        RelayMove move = RelayMove.of(r.td(), r.before());
        ExecutorDetails moved = move.executor();
        String toHost = supervisors().get(move.to().getNodeId()).getHost();
        String fromHost = supervisors().get(move.from().getNodeId()).getHost();
        String doc = ZkPaths.metricsWorker(ZkPaths.METRICS, r.td().getId(), fromHost, move.from().getPort());
        long max = HandoffLimits.DEFAULTS.maxBytes();
        String plan = "{\"placement\":{\"[" + moved.getStartTask() + "," + moved.getEndTask() + "]\":\"" + toHost + ":"
                      + move.to().getPort() + "\"}}";
        ZK.put(doc, stateDoc(r.td().getId(), fromHost, move.from().getPort(), moved, max + 1, true));
        try {
            writePlan(r.name(), plan);
            Cluster second = r.round(r.first());
            assertEquals(r.before(), r.slotsIn(second), "the executor must stay where its state is");
            String d = decision(r.name());
            assertTrue(d.contains("\"status\":\"rejected\"") && d.contains("(relay) is not moved live: its state is "
                       + "more than " + max + " bytes (measured by worker " + fromHost + "-" + move.from().getPort())
                       && d.contains(HandoffLimits.MAX_BYTES), d);

            // Measured again, within the limit: the same plan, written again, is applied.
            ZK.put(doc, stateDoc(r.td().getId(), fromHost, move.from().getPort(), moved, 1234, false));
            writePlan(r.name(), plan);
            Map<WorkerSlot, Set<ExecutorDetails>> after = r.slotsIn(r.round(second));
            assertTrue(after.get(move.to()).contains(moved), after.toString());
            assertTrue(decision(r.name()).contains("\"status\":\"applied\""), decision(r.name()));
        } finally {
            ZK.client().delete().forPath(doc);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAN_FOLLOWING, NONSTOP})
    void aPlanNamingAMissingExecutorOrPortIsRejectedAndNothingMoves(String kind) throws Exception {
        Relay r = Relay.placed(kind, "relay-b-" + kind);
        writePlan(r.name(), "{\"placement\":{\"[99,99]\":\"127.0.0.11:6700\"}}");
        Cluster second = r.round(r.first());
        assertEquals(r.before(), r.slotsIn(second));
        String d = decision(r.name());
        assertTrue(d.contains("\"status\":\"rejected\"") && d.contains("executor [99,99] is not an executor of " + r.td().getId()), d);

        writePlan(r.name(), "{\"placement\":{\"[2,2]\":\"127.0.0.11:9999\"}}");
        Cluster third = r.round(second);
        assertEquals(r.before(), r.slotsIn(third));
        d = decision(r.name());
        assertTrue(d.contains("\"plan_version\":1") && d.contains("port 9999 is not a worker slot"), d);

        writePlan(r.name(), "garbage");
        assertEquals(r.before(), r.slotsIn(r.round(third)));
        assertTrue(decision(r.name()).contains("not valid JSON"));
    }

    /** {@code prev}'s next round as Nimbus builds it when it leaves {@code hidden}'s port out of its supervisor. */
    static Cluster nextRoundWithout(WorkerSlot hidden, Cluster prev, TopologyDetails td) {
        Map<String, SchedulerAssignment> copy = new HashMap<>();
        prev.getAssignments().forEach((k, v) -> copy.put(k, new SchedulerAssignmentImpl(v)));
        Map<String, SupervisorDetails> sups = supervisors();
        SupervisorDetails sup = sups.get(hidden.getNodeId());
        List<Number> ports = sup.getAllPorts().stream().filter(p -> p != hidden.getPort()).map(p -> (Number) p).toList();
        sups.put(sup.getId(), new SupervisorDetails(sup.getId(), sup.getHost(), null, ports));
        return new Cluster(new OfflineNimbus(), new ResourceMetrics(new StormMetricsRegistry()), sups, copy,
                           new Topologies(td), new HashMap<>(ZK.conf()));
    }

    @org.junit.jupiter.api.Test
    void aPlanWaitsOutARoundThatLeavesOutASlotItsTopologyRunsOnAndIsDecidedWhenTheSlotIsBack() throws Exception {
        long[] now = {1_000};
        PlanFollowingScheduler s = ZK.prepare(new PlanFollowingScheduler(() -> now[0]));
        TopologyDetails td = relay("relay-hidden", "relay-hidden-1-100");
        Cluster first = cluster(new HashMap<>(), td);
        s.schedule(new Topologies(td), first);
        Map<WorkerSlot, Set<ExecutorDetails>> before = slots(first, td.getId());
        RelayMove move = RelayMove.of(td, before);
        String host = supervisors().get(move.to().getNodeId()).getHost();
        String name = td.getName();
        String planned = "{\"placement\":{\"[" + move.executor().getStartTask() + "," + move.executor().getEndTask()
                         + "]\":\"" + host + ":" + move.to().getPort() + "\"}}";
        writePlan(name, planned);

        Cluster hiding = nextRoundWithout(move.from(), first, td);
        s.schedule(new Topologies(td), hiding);
        assertEquals(before, slots(hiding, td.getId()), "nothing moves in a round that hides a slot in use");
        assertNull(ZK.client().checkExists().forPath(ZkPaths.DECISIONS + "/" + name), "no decision while it waits");

        now[0] += PlanFollowingScheduler.HIDDEN_SLOT_WAIT_MS - 1;
        Cluster back = nextRound(hiding, td);
        s.schedule(new Topologies(td), back);
        assertTrue(slots(back, td.getId()).get(move.to()).contains(move.executor()), "applied once the slot is back");
        assertTrue(decision(name).contains("\"status\":\"applied\""), decision(name));

        // A plan whose slot stays hidden past the wait is decided on that view: rejected, with the reason.
        writePlan(name, "{\"placement\":{\"[" + move.executor().getStartTask() + "," + move.executor().getEndTask()
                        + "]\":\"" + supervisors().get(move.from().getNodeId()).getHost() + ":" + move.from().getPort()
                        + "\"}}");
        Cluster still = nextRoundWithout(move.to(), back, td);
        s.schedule(new Topologies(td), still);
        assertTrue(decision(name).contains("\"plan_version\":0"), decision(name));
        now[0] += PlanFollowingScheduler.HIDDEN_SLOT_WAIT_MS;
        Cluster late = nextRoundWithout(move.to(), still, td);
        s.schedule(new Topologies(td), late);
        String d = decision(name);
        assertTrue(d.contains("\"plan_version\":1") && d.contains("\"status\":\"rejected\"")
                   && d.contains("does not exist"), d);
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
        Map<String, Object> bad = new HashMap<>(ZK.conf());
        bad.remove("storm.zookeeper.servers");
        IScheduler s = kind.equals(NONSTOP) ? new NonstopScheduler() : new PlanFollowingScheduler(() -> 0L);
        s.prepare(bad, new StormMetricsRegistry());
        TopologyDetails td = relay("relay-d", "relay-d-1-100");
        Cluster c = cluster(new HashMap<>(), td);
        s.schedule(new Topologies(td), c);
        assertEquals(6, c.getAssignmentById(td.getId()).getExecutors().size());
    }
}
