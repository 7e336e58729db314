package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.testing.PlacementChecks;
import io.nonstopstorm.scheduling.testing.RandomInstance;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.nonstopstorm.scheduling.core.PaperFigure4.slot;
import static io.nonstopstorm.scheduling.core.PaperFigure4.thread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DefaultRoundRobinMappingTest {

    @Test
    void reproducesFigure4() {
        Placement p = DefaultRoundRobinMapping.map(PaperFigure4.TOPOLOGY, PaperFigure4.CLUSTER).orElseThrow();

        // B1..B5 -> s11,s12,s21,s22,s31
        assertEquals(slot(1, 1), p.slotOf(thread("B", 1)).orElseThrow());
        assertEquals(slot(1, 2), p.slotOf(thread("B", 2)).orElseThrow());
        assertEquals(slot(2, 1), p.slotOf(thread("B", 3)).orElseThrow());
        assertEquals(slot(2, 2), p.slotOf(thread("B", 4)).orElseThrow());
        assertEquals(slot(3, 1), p.slotOf(thread("B", 5)).orElseThrow());
        // O1..O4 -> s32,s11,s12,s21 (the counter runs on across tasks)
        assertEquals(slot(3, 2), p.slotOf(thread("O", 1)).orElseThrow());
        assertEquals(slot(1, 1), p.slotOf(thread("O", 2)).orElseThrow());
        assertEquals(slot(1, 2), p.slotOf(thread("O", 3)).orElseThrow());
        assertEquals(slot(2, 1), p.slotOf(thread("O", 4)).orElseThrow());
        // Y1..Y3 -> s22,s31,s32
        assertEquals(slot(2, 2), p.slotOf(thread("Y", 1)).orElseThrow());
        assertEquals(slot(3, 1), p.slotOf(thread("Y", 2)).orElseThrow());
        assertEquals(slot(3, 2), p.slotOf(thread("Y", 3)).orElseThrow());
        // G1..G5 -> s11,s12,s21,s22,s31
        assertEquals(slot(1, 1), p.slotOf(thread("G", 1)).orElseThrow());
        assertEquals(slot(1, 2), p.slotOf(thread("G", 2)).orElseThrow());
        assertEquals(slot(2, 1), p.slotOf(thread("G", 3)).orElseThrow());
        assertEquals(slot(2, 2), p.slotOf(thread("G", 4)).orElseThrow());
        assertEquals(slot(3, 1), p.slotOf(thread("G", 5)).orElseThrow());
        assertEquals(17, p.size());
    }

    @Test
    void failsWithoutSlots() {
        var o = DefaultRoundRobinMapping.map(PaperFigure4.TOPOLOGY.executorIds(), List.<SlotId>of());
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().contains("no slots"));
    }

    @Test
    void randomInstancesArePlacedOnceOnUsableSlotsWithinWorkerCountAndRerunsAreStable() {
        for (long seed = 1; seed <= 200; seed++) {
            RandomInstance in = RandomInstance.generate(seed, RandomInstance.Shape.MEDIUM);
            Placement p = DefaultRoundRobinMapping.map(in.topology(), in.cluster()).orElseThrow();
            PlacementChecks.assertCompleteAndOnUsableSlots(in.topology(), in.cluster(), p);
            assertTrue(p.usedSlots().size() <= in.topology().effectiveWorkers());
            int e = in.topology().executors().size();
            int w = p.usedSlots().size();
            // round-robin evenness: slot sizes differ by at most one
            var sizes = p.executorsBySlot().values().stream().mapToInt(List::size).summaryStatistics();
            assertTrue(sizes.getMax() - sizes.getMin() <= 1, "seed " + seed);
            assertEquals(e, sizes.getSum());
            assertTrue(w >= 1);

            ClusterModel after = in.cluster().withOwnedSlots(in.topology().id(), p.usedSlots());
            assertEquals(p, DefaultRoundRobinMapping.map(in.topology(), after).orElseThrow(), "seed " + seed);
        }
    }
}
