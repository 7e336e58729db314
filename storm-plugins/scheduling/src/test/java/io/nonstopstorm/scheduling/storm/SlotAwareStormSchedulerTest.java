package io.nonstopstorm.scheduling.storm;

import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.prepared;
import static io.nonstopstorm.scheduling.storm.StormFixtures.supervisors;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlotAwareStormSchedulerTest {

    private static final Map<String, SupervisorDetails> SUPS = supervisors(2, 2);

    private static SlotAwareStormScheduler scheduler() {
        return prepared(new SlotAwareStormScheduler(), Map.of());
    }

    @Test
    void mapsBundlesFromTheTopologysAllocation() {
        Map<String, Object> allocation = Map.of(
                "spout", Map.of("cpu", 0.2, "memory", 0.2),
                "split", Map.of("cpu", 1.0, "memory", 1.0, "bundle", 2),
                "count", Map.of("cpu", 1.4, "memory", 1.3, "bundle", 1));
        TopologyDetails wc = wordCount("wc", 4, Map.of("nonstop.scheduler", "slot-aware", "nonstop.sam.allocation", allocation));
        Cluster c = cluster(SUPS, new HashMap<>(), wc);
        scheduler().schedule(new Topologies(wc), c);

        assertTrue(c.getUnassignedExecutors(wc).isEmpty());
        Map<ExecutorDetails, WorkerSlot> where = c.getAssignmentById("wc").getExecutorToSlot();
        WorkerSlot split = where.get(new ExecutorDetails(3, 3));
        assertEquals(split, where.get(new ExecutorDetails(4, 4)), "the split bundle shares one slot");
        assertNotEquals(where.get(new ExecutorDetails(5, 5)), where.get(new ExecutorDetails(6, 6)), "count threads are exclusive");
        assertTrue(where.entrySet().stream().filter(e -> e.getValue().equals(split))
                .allMatch(e -> e.getKey().getStartTask() == 3 || e.getKey().getStartTask() == 4 || e.getKey().getStartTask() == 7),
                "only zero-demand executors join a full bundle's slot");
        assertTrue(c.getStatusMap().get("wc").startsWith("nonstop slot-aware: slot-aware mapping"));
    }

    @Test
    void missingAllocationFallsBackToTheDefault() {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "slot-aware"));
        Cluster c = cluster(SUPS, new HashMap<>(), wc);
        scheduler().schedule(new Topologies(wc), c);
        assertTrue(c.getUnassignedExecutors(wc).isEmpty());
        assertTrue(c.getStatusMap().get("wc").contains("nonstop.sam.allocation is missing"), c.getStatusMap().get("wc"));
    }
}
