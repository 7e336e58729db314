package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.core.AnielloOfflineScheduler;
import io.nonstopstorm.scheduling.model.Placement;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SchedulerAssignmentImpl;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.nextRound;
import static io.nonstopstorm.scheduling.storm.StormFixtures.prepared;
import static io.nonstopstorm.scheduling.storm.StormFixtures.slotsOf;
import static io.nonstopstorm.scheduling.storm.StormFixtures.supervisors;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnielloOfflineStormSchedulerTest {

    private static final Map<String, SupervisorDetails> SUPS = supervisors(2, 2);

    private static AnielloOfflineStormScheduler scheduler() {
        return prepared(new AnielloOfflineStormScheduler(), Map.of());
    }

    @Test
    void placesAnOptedInTopologyAsTheCoreDecidesAndAgainChangesNothing() {
        TopologyDetails wc = wordCount("wc", 3, Map.of("nonstop.scheduler", "aniello-offline",
                "nonstop.aniello.alpha", 0.0, "nonstop.aniello.beta", 1.0));
        Cluster c = cluster(SUPS, new HashMap<>(), wc);
        scheduler().schedule(new org.apache.storm.scheduler.Topologies(wc), c);

        assertTrue(c.getUnassignedExecutors(wc).isEmpty());
        Placement expected = new AnielloOfflineScheduler(0, 1)
                .schedule(StormModelMapper.topology(wc), StormModelMapper.cluster(cluster(SUPS, new HashMap<>(), wc),
                        s -> Double.POSITIVE_INFINITY, n -> 0.0)).orElseThrow();
        assertEquals(expected, StormModelMapper.placement(c, "wc"));
        assertTrue(c.getStatusMap().get("wc").startsWith("nonstop aniello-offline: offline placement"), c.getStatusMap().get("wc"));

        Cluster next = nextRound(c, SUPS, wc);
        scheduler().schedule(new org.apache.storm.scheduler.Topologies(wc), next);
        assertEquals(slotsOf(c, "wc"), slotsOf(next, "wc"));
        assertEquals("nonstop aniello-offline: all executors placed", next.getStatusMap().get("wc"));
    }

    @Test
    void leavesOtherTopologiesToTheDefaultAndNeverTouchesTheirSlots() {
        TopologyDetails mine = wordCount("mine", 2, Map.of("nonstop.scheduler", "aniello-offline"));
        TopologyDetails plain = wordCount("plain", 1, Map.of());
        TopologyDetails running = wordCount("running", 1, Map.of());
        // "running" already holds sup1:6700 with all its executors.
        Map<ExecutorDetails, WorkerSlot> runningExecs = new HashMap<>();
        running.getExecutors().forEach(e -> runningExecs.put(e, new WorkerSlot("sup1", 6700)));
        Map<String, SchedulerAssignment> assignments = new HashMap<>();
        assignments.put("running", new SchedulerAssignmentImpl("running", runningExecs, null, null));
        Cluster c = cluster(SUPS, assignments, mine, plain, running);
        Map<WorkerSlot, Set<ExecutorDetails>> before = slotsOf(c, "running");

        scheduler().schedule(new org.apache.storm.scheduler.Topologies(mine, plain, running), c);

        assertEquals(before, slotsOf(c, "running"));
        assertTrue(c.getUnassignedExecutors(mine).isEmpty());
        assertTrue(c.getUnassignedExecutors(plain).isEmpty(), "default scheduler placed the plain topology");
        assertTrue(slotsOf(c, "mine").keySet().stream().noneMatch(before::containsKey));
        assertTrue(slotsOf(c, "plain").keySet().stream().noneMatch(before::containsKey));
    }

    @Test
    void badConfigurationFallsBackToTheDefaultWithAStatus() {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "aniello-offline", "nonstop.aniello.alpha", 2));
        Cluster c = cluster(SUPS, new HashMap<>(), wc);
        scheduler().schedule(new org.apache.storm.scheduler.Topologies(wc), c);
        assertTrue(c.getUnassignedExecutors(wc).isEmpty(), "fallback placed everything");
        String status = c.getStatusMap().get("wc");
        assertTrue(status.contains("failed") && status.contains("nonstop.aniello.alpha must be in [0,1]"), status);
    }

    @Test
    void tooFewSlotsIsAFailureValueAndFallsBack() {
        Map<String, SupervisorDetails> one = supervisors(1, 2);
        TopologyDetails wc = wordCount("wc", 3, Map.of("nonstop.scheduler", "aniello-offline"));
        Cluster c = cluster(one, new HashMap<>(), wc);
        scheduler().schedule(new org.apache.storm.scheduler.Topologies(wc), c);
        assertTrue(c.getStatusMap().get("wc").contains("needs 3 slots but only 2"), c.getStatusMap().get("wc"));
        assertTrue(c.getUnassignedExecutors(wc).isEmpty(), "DefaultScheduler still runs it on the 2 slots");
        assertEquals(List.of(), List.copyOf(c.getUnassignedExecutors(wc)));
    }
}
