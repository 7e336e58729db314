package io.nonstopstorm.scheduling.storm;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.nextRound;
import static io.nonstopstorm.scheduling.storm.StormFixtures.prepared;
import static io.nonstopstorm.scheduling.storm.StormFixtures.slotsOf;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.Placement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SchedulerAssignmentImpl;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;
import org.apache.storm.scheduler.resource.ResourceAwareScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Storm's ResourceAwareScheduler for the topologies that ask for it, on real Storm scheduler objects. */
class ResourceAwareStormSchedulerTest {

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    private ResourceAwareStormScheduler scheduler() {
        ResourceAwareStormScheduler s = prepared(new ResourceAwareStormScheduler(), Map.of());
        cleanups.add(s::cleanup);
        return s;
    }

    /** Supervisors sup1..supN with 4 ports each and the given CPU (% of a core) and memory (MB). */
    private static Map<String, SupervisorDetails> supervisors(double[] cpu, double memoryMb) {
        Map<String, SupervisorDetails> m = new LinkedHashMap<>();
        for (int i = 1; i <= cpu.length; i++) {
            Map<String, Double> resources = Map.of(Config.SUPERVISOR_CPU_CAPACITY, cpu[i - 1],
                    Config.SUPERVISOR_MEMORY_CAPACITY_MB, memoryMb);
            m.put("sup" + i, new SupervisorDetails("sup" + i, "host" + i, null, List.of(6700, 6701, 6702, 6703), resources));
        }
        return m;
    }

    /** The word count (7 executors) with every executor requesting {@code cpu} % and {@code memoryMb} MB. */
    private static TopologyDetails topology(String id, String scheduler, double cpu, double memoryMb, int priority) {
        Map<String, Object> conf = new HashMap<>();
        if (scheduler != null) {
            conf.put(ConfiguredScheduler.SCHEDULER_KEY, scheduler);
        }
        conf.put(Config.TOPOLOGY_COMPONENT_CPU_PCORE_PERCENT, cpu);
        conf.put(Config.TOPOLOGY_COMPONENT_RESOURCES_ONHEAP_MEMORY_MB, memoryMb);
        conf.put(Config.TOPOLOGY_PRIORITY, priority);
        return wordCount(id, 2, conf);
    }

    /** All of the topology's executors in one slot. */
    private static Map<String, SchedulerAssignment> allIn(TopologyDetails td, WorkerSlot slot) {
        Map<ExecutorDetails, WorkerSlot> where = new HashMap<>();
        td.getExecutors().forEach(e -> where.put(e, slot));
        return new HashMap<>(Map.of(td.getId(), new SchedulerAssignmentImpl(td.getId(), where, null, null)));
    }

    private static Set<String> nodesOf(Cluster c, String topologyId) {
        return slotsOf(c, topologyId).keySet().stream().map(WorkerSlot::getNodeId).collect(Collectors.toSet());
    }

    @Test
    void placesItsTopologyExactlyAsStormsRasDoesAndThenLeavesItAlone() {
        Map<String, SupervisorDetails> sups = supervisors(new double[] {400, 400}, 4096);
        TopologyDetails ras = topology("r", "ras", 20, 100, 29);

        ResourceAwareScheduler storms = new ResourceAwareScheduler();
        Map<String, Object> conf = new HashMap<>(org.apache.storm.utils.Utils.readDefaultConfig());
        storms.prepare(conf, new StormMetricsRegistry());
        cleanups.add(storms::cleanup);
        Cluster reference = cluster(sups, new HashMap<>(), ras);
        storms.schedule(new Topologies(ras), reference);
        assertTrue(reference.getUnassignedExecutors(ras).isEmpty());

        ResourceAwareStormScheduler s = scheduler();
        Cluster c = cluster(sups, new HashMap<>(), ras);
        s.schedule(new Topologies(ras), c);
        assertEquals(StormModelMapper.placement(reference, "r"), StormModelMapper.placement(c, "r"));
        String status = c.getStatusMap().get("r");
        assertTrue(status.startsWith("nonstop ras: resource-aware placement on "), status);
        assertTrue(status.contains("Fully Scheduled"), "RAS's own words are kept: " + status);
        // Each worker got its executors' requests.
        double cpu = c.getAssignmentById("r").getScheduledResources().values().stream().mapToDouble(w -> w.get_cpu()).sum();
        assertEquals(7 * 20.0, cpu, 1e-9);

        Cluster next = nextRound(c, sups, ras);
        s.schedule(new Topologies(ras), next);
        assertEquals(slotsOf(c, "r"), slotsOf(next, "r"));
        assertEquals("nonstop ras: all executors placed", next.getStatusMap().get("r"));
    }

    @Test
    void otherTopologiesSlotsAndResourcesAreTakenAndLeftAlone() {
        // sup1 is the bigger node, so RAS prefers it when it looks empty.
        Map<String, SupervisorDetails> sups = supervisors(new double[] {200, 100}, 4096);
        TopologyDetails ras = topology("r", "ras", 10, 100, 29);

        // A light foreign topology on sup1: RAS still takes sup1 (control: the node choice is not fixed).
        TopologyDetails light = topology("light", null, 1, 100, 29);
        Cluster c1 = cluster(sups, allIn(light, new WorkerSlot("sup1", 6700)), light, ras);
        scheduler().schedule(new Topologies(ras), c1);
        assertEquals(Set.of("sup1"), nodesOf(c1, "r"));
        assertFalse(slotsOf(c1, "r").containsKey(new WorkerSlot("sup1", 6700)), "never the foreign worker's slot");

        // A heavy one (7 x 27 = 189 % of sup1's 200): the 7 x 10 % no longer fit there, so all go to sup2.
        TopologyDetails heavy = topology("heavy", null, 27, 100, 29);
        Map<String, SchedulerAssignment> before = allIn(heavy, new WorkerSlot("sup1", 6700));
        Cluster c2 = cluster(sups, before, heavy, ras);
        scheduler().schedule(new Topologies(ras), c2);
        assertEquals(Set.of("sup2"), nodesOf(c2, "r"));
        assertTrue(c2.getUnassignedExecutors(ras).isEmpty());
        assertEquals(Map.of(new WorkerSlot("sup1", 6700), Set.copyOf(heavy.getExecutors())), slotsOf(c2, "heavy"));
    }

    @Test
    void aTopologyThatDoesNotFitWaitsWithRassReasonAndNoFallback() {
        Map<String, SupervisorDetails> sups = supervisors(new double[] {100, 100}, 4096);
        TopologyDetails big = topology("big", "ras", 40, 100, 29);   // 280 % > 200 %
        TopologyDetails plain = topology("plain", null, 10, 100, 29);
        Cluster c = cluster(sups, allIn(plain, new WorkerSlot("sup2", 6701)), big, plain);
        ResourceAwareStormScheduler s = scheduler();
        List<String> records = new ArrayList<>();
        s.recordDecisionsWith((td, name, d) -> records.add(td.getId()));
        for (int round = 0; round < 2; round++) {
            s.schedule(new Topologies(big), c);
            assertEquals(7, c.getUnassignedExecutors(big).size(), "RAS keeps it waiting; no DefaultScheduler fallback");
            String status = c.getStatusMap().get("big");
            assertTrue(status.startsWith("nonstop ras: not placed: Not enough resources to schedule"), status);
            c = nextRound(c, sups, big, plain);
        }
        assertEquals(Map.of(new WorkerSlot("sup2", 6701), Set.copyOf(plain.getExecutors())), slotsOf(c, "plain"));
        assertEquals(List.of(), records, "nothing changed, nothing recorded");
    }

    @Test
    void aHigherPriorityTopologyDoesNotEvictAnotherAsStormsRasWould() {
        Map<String, SupervisorDetails> sups = supervisors(new double[] {100, 100}, 4096);
        TopologyDetails low = topology("low", "ras", 20, 100, 29);    // 140 %: fits
        TopologyDetails high = topology("high", "ras", 20, 100, 0);   // another 140 %: does not fit too
        ResourceAwareStormScheduler s = scheduler();
        Cluster r1 = cluster(sups, new HashMap<>(), low);
        s.schedule(new Topologies(low), r1);
        assertTrue(r1.getUnassignedExecutors(low).isEmpty());

        // Control: Storm's RAS, given both, evicts the lower-priority one to place the other.
        ResourceAwareScheduler storms = new ResourceAwareScheduler();
        storms.prepare(new HashMap<>(org.apache.storm.utils.Utils.readDefaultConfig()), new StormMetricsRegistry());
        cleanups.add(storms::cleanup);
        Cluster control = nextRound(r1, sups, low, high);
        storms.schedule(new Topologies(low, high), control);
        assertTrue(control.getUnassignedExecutors(high).isEmpty());
        SchedulerAssignment lowInControl = control.getAssignmentById("low");
        assertTrue(lowInControl == null || lowInControl.getSlots().isEmpty(), "Storm's RAS evicted low");

        Cluster r2 = nextRound(r1, sups, low, high);
        s.schedule(new Topologies(low, high), r2);
        assertEquals(slotsOf(r1, "low"), slotsOf(r2, "low"), "low keeps its workers");
        assertEquals(7, r2.getUnassignedExecutors(high).size());
    }

    @Test
    void theViewHidesOtherTopologiesSlotsAndResourcesAndChangesNothingInTheSource() {
        Map<String, SupervisorDetails> sups = supervisors(new double[] {100, 100}, 4096);
        TopologyDetails ras = topology("r", "ras", 10, 100, 29);
        TopologyDetails plain = topology("plain", null, 10, 100, 29);
        Cluster c = cluster(sups, allIn(plain, new WorkerSlot("sup1", 6700)), plain, ras);
        TopologySubsetView view = TopologySubsetView.of(c, List.of(ras));
        assertEquals(Set.of(6701, 6702, 6703), view.cluster().getSupervisorById("sup1").getAllPorts());
        assertEquals(100 - 70, view.cluster().getSupervisorById("sup1").getTotalCpu(), 1e-9);
        assertEquals(4096 - 700, view.cluster().getSupervisorById("sup1").getTotalMemory(), 1e-9);
        assertEquals(100, view.cluster().getSupervisorById("sup2").getTotalCpu(), 1e-9);
        assertEquals(List.of("r"), List.copyOf(view.topologies().getAllIds()));
        org.apache.storm.scheduler.DefaultScheduler.defaultSchedule(view.topologies(), view.cluster());
        assertTrue(view.cluster().getUnassignedExecutors(ras).isEmpty());
        assertEquals(Placement.empty(), StormModelMapper.placement(c, "r"));
        assertEquals(Set.of(new WorkerSlot("sup1", 6700)), Set.copyOf(c.getUsedSlots()));
        assertFalse(new ResourceAwareStormScheduler().plan(ras, c).isSuccess(), "unprepared: a failure value");
    }
}
