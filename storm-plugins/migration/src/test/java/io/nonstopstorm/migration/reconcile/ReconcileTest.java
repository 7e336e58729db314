package io.nonstopstorm.migration.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.plan.PortPlan;
import io.nonstopstorm.wire.ExecutorId;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ReconcileTest {
    private static final ExecutorId E1 = new ExecutorId(1, 1);
    private static final ExecutorId E2 = new ExecutorId(2, 3);
    private static final ExecutorId E4 = new ExecutorId(4, 4);

    @Test
    void diffAddsAndRemovesButNeverTouchesTheSystemExecutor() {
        ExecutorDiff d = ExecutorDiff.between(Set.of(ExecutorId.SYSTEM, E1, E2), Set.of(E2, E4));
        assertEquals(new TreeSet<>(Set.of(E4)), d.toAdd());
        assertEquals(new TreeSet<>(Set.of(E1)), d.toRemove());
        assertEquals(new TreeSet<>(Set.of(1)), d.removedTasks());
        assertEquals(new TreeSet<>(Set.of(4)), d.addedTasks());
        assertTrue(ExecutorDiff.between(Set.of(ExecutorId.SYSTEM, E1), Set.of(E1, ExecutorId.SYSTEM)).isEmpty());
        assertEquals(new TreeSet<>(Set.of(2, 3)), ExecutorDiff.between(Set.of(E2), Set.of()).removedTasks());
    }

    private static NodePlan plan(int port, String topo, ExecutorId... execs) {
        return new NodePlan(3, 0, new TreeMap<>(Map.of(port, new PortPlan(topo, new TreeSet<>(Set.of(execs))))),
                            new TreeMap<>());
    }

    @Test
    void thePlanStoreWinsWhenItDescribesThisWorker() {
        DesiredExecutors.Decision d = DesiredExecutors.decide("t", 6701, Optional.of(plan(6701, "t", E1, E4)),
                                                              Optional.of(Set.of(E1)));
        assertFalse(d.exit());
        assertEquals(DesiredExecutors.Source.PLAN_STORE, d.source());
        assertEquals(new TreeSet<>(Set.of(ExecutorId.SYSTEM, E1, E4)), d.executors());
    }

    @Test
    void theAssignmentIsUsedWhileTheStoreLagsOrIsMissing() {
        DesiredExecutors.Decision other = DesiredExecutors.decide("t", 6701, Optional.of(plan(6702, "t", E4)),
                                                                  Optional.of(Set.of(E1, E2)));
        assertEquals(DesiredExecutors.Source.ASSIGNMENT, other.source());
        assertEquals(new TreeSet<>(Set.of(ExecutorId.SYSTEM, E1, E2)), other.executors());
        DesiredExecutors.Decision none = DesiredExecutors.decide("t", 6701, Optional.empty(), Optional.of(Set.of(E2)));
        assertEquals(DesiredExecutors.Source.ASSIGNMENT, none.source());
    }

    @Test
    void exitsExactlyWhereStockStormWould() {
        assertTrue(DesiredExecutors.decide("t", 6701, Optional.of(plan(6701, "t", E1)), Optional.empty()).exit(),
                   "no assignment at all: the topology is gone");
        assertTrue(DesiredExecutors.decide("t", 6701, Optional.of(plan(6701, "u", E1)), Optional.of(Set.of())).exit(),
                   "the port now belongs to another topology and nothing of ours is assigned here");
        assertFalse(DesiredExecutors.decide("t", 6701, Optional.of(plan(6701, "u", E1)), Optional.of(Set.of(E2))).exit(),
                    "a stale store never kills a worker that still has assigned executors");
    }

    @Test
    void aPlanStoreWrittenForAnotherPlacementNeverOverridesTheAssignment() {
        NodePlan stored = new NodePlan(3, 0, new TreeMap<>(Map.of(6701, new PortPlan("t", new TreeSet<>(Set.of(E1, E4))))),
                                       new TreeMap<>(Map.of("t", "aaaa")));
        DesiredExecutors.Decision stale = DesiredExecutors.decide("t", 6701, Optional.of(stored), Optional.of(Set.of(E2)),
                                                                  Optional.of("bbbb"));
        assertEquals(DesiredExecutors.Source.ASSIGNMENT, stale.source());
        assertEquals(new TreeSet<>(Set.of(ExecutorId.SYSTEM, E2)), stale.executors());
        assertEquals("aaaa", stale.staleStoreFingerprint(), "the worker can name the store it passed over");
        DesiredExecutors.Decision current = DesiredExecutors.decide("t", 6701, Optional.of(stored), Optional.of(Set.of(E2)),
                                                                    Optional.of("aaaa"));
        assertEquals(DesiredExecutors.Source.PLAN_STORE, current.source());
        assertEquals(new TreeSet<>(Set.of(ExecutorId.SYSTEM, E1, E4)), current.executors());
        assertNull(current.staleStoreFingerprint());
        assertNull(DesiredExecutors.decide("t", 6701, Optional.of(plan(6702, "t", E4)), Optional.of(Set.of(E2)),
                                           Optional.of("bbbb")).staleStoreFingerprint(),
                   "a store that does not describe this worker is lagging, not overridden");
        // A store without a fingerprint for the topology cannot be compared: it is followed, as before.
        assertEquals(DesiredExecutors.Source.PLAN_STORE, DesiredExecutors.decide(
            "t", 6701, Optional.of(plan(6701, "t", E1)), Optional.of(Set.of(E2)), Optional.of("bbbb")).source());
    }
}
