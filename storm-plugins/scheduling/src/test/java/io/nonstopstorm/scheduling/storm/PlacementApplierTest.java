package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.wire.ExecutorId;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SchedulerAssignmentImpl;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.slotsOf;
import static io.nonstopstorm.scheduling.storm.StormFixtures.supervisors;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PlacementApplierTest {

    private static final Map<String, SupervisorDetails> SUPS = supervisors(2, 2);
    private static final WorkerSlot A = new WorkerSlot("sup1", 6700);
    private static final WorkerSlot B = new WorkerSlot("sup1", 6701);
    private static final WorkerSlot C = new WorkerSlot("sup2", 6700);
    private static final WorkerSlot D = new WorkerSlot("sup2", 6701);

    @Test
    void movingOneExecutorTouchesOnlyItsTwoSlots() {
        TopologyDetails wc = wordCount("wc", 3, Map.of());
        Cluster c = cluster(SUPS, Map.of("wc", assignment("wc", Map.of(1, A, 2, A, 3, B, 4, B, 5, C, 6, C, 7, C))), wc);
        Map<ExecutorId, SlotId> target = new HashMap<>();
        Map.of(1, A, 2, B, 3, B, 4, B, 5, C, 6, C, 7, C).forEach((t, s) -> target.put(ExecutorId.single(t), StormModelMapper.slot(s)));

        assertEquals(2, PlacementApplier.apply(c, wc, Placement.of(target)));
        assertEquals(Placement.of(target), StormModelMapper.placement(c, "wc"));
        assertEquals(0, PlacementApplier.apply(c, wc, Placement.of(target)), "applying again changes nothing");
    }

    @Test
    void refusesSlotsOfOtherTopologiesAndLeavesTheClusterUntouched() {
        TopologyDetails wc = wordCount("wc", 2, Map.of());
        TopologyDetails other = wordCount("other", 1, Map.of());
        Map<String, SchedulerAssignment> assignments = new HashMap<>();
        assignments.put("wc", assignment("wc", Map.of(1, A, 2, A, 3, A, 4, A, 5, B, 6, B, 7, B)));
        assignments.put("other", assignment("other", Map.of(1, D, 2, D, 3, D, 4, D, 5, D, 6, D, 7, D)));
        Cluster c = cluster(SUPS, assignments, wc, other);
        Map<WorkerSlot, Set<ExecutorDetails>> before = slotsOf(c, "wc");
        Map<ExecutorId, SlotId> target = new HashMap<>();
        for (int t = 1; t <= 7; t++) {
            target.put(ExecutorId.single(t), StormModelMapper.slot(t <= 4 ? A : D));
        }
        assertThrows(IllegalStateException.class, () -> PlacementApplier.apply(c, wc, Placement.of(target)));
        assertEquals(before, slotsOf(c, "wc"));
    }

    private static SchedulerAssignmentImpl assignment(String id, Map<Integer, WorkerSlot> taskToSlot) {
        Map<ExecutorDetails, WorkerSlot> m = new HashMap<>();
        taskToSlot.forEach((t, s) -> m.put(new ExecutorDetails(t, t), s));
        return new SchedulerAssignmentImpl(id, m, null, null);
    }
}
