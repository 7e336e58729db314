package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.testing.PlacementChecks;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.nonstopstorm.scheduling.core.PaperFigure4.slot;
import static io.nonstopstorm.scheduling.core.PaperFigure4.thread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlotAwareMappingTest {

    /** Bundles 2, 3, 3, 4 as in the paper; residual CPU/memory small enough to share one slot. */
    private static final Map<String, ComponentAllocation> FIG4_ALLOCATION = Map.of(
            "B", new ComponentAllocation(2.2, 2.1, 2),
            "O", new ComponentAllocation(1.3, 1.25, 3),
            "Y", new ComponentAllocation(1.0, 1.0, 3),
            "G", new ComponentAllocation(1.25, 1.3, 4));

    @Test
    void reproducesFigure4() {
        Placement p = SlotAwareMapping.map(PaperFigure4.TOPOLOGY, PaperFigure4.CLUSTER, FIG4_ALLOCATION).orElseThrow();

        // Sweep 1: B1–B2 -> s11, O1–O3 -> s12, Y1–Y3 -> s21, G1–G4 -> s22
        assertThreads(p, "B", 1, 2, slot(1, 1));
        assertThreads(p, "O", 1, 3, slot(1, 2));
        assertThreads(p, "Y", 1, 3, slot(2, 1));
        assertThreads(p, "G", 1, 4, slot(2, 2));
        // Sweep 2: B3–B4 -> s31 (full bundle), O4 -> s32 (only slot with room), G5 -> s32 (best fit)
        assertThreads(p, "B", 3, 4, slot(3, 1));
        assertThreads(p, "O", 4, 4, slot(3, 2));
        assertThreads(p, "G", 5, 5, slot(3, 2));
        // Sweep 3: B5 -> s32
        assertThreads(p, "B", 5, 5, slot(3, 2));
        assertEquals(17, p.size());
    }

    @Test
    void bestFitPrefersThePartlyUsedSlotThatStillFits() {
        // Two single-thread components with residual demand; the second must join the first's slot
        // (free 0.6+0.6 = 1.2 < 2.0 of an empty slot).
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a", "b"), Map.of("a", 1, "b", 1), 2);
        ClusterModel c = ClusterModel.of(List.of(Node.of("v1", List.of(1, 2))));
        Map<String, ComponentAllocation> alloc = Map.of(
                "a", new ComponentAllocation(0.4, 0.4, ComponentAllocation.NO_BUNDLE),
                "b", new ComponentAllocation(0.5, 0.5, ComponentAllocation.NO_BUNDLE));
        Placement p = SlotAwareMapping.map(t, c, alloc).orElseThrow();
        assertEquals(List.of(new SlotId("v1", 1)), List.copyOf(p.usedSlots()));
    }

    @Test
    void residualEqualToBundleTakesAnExclusiveSlot() {
        // Star DAG case of the paper: Parse XML with τ̂ = 1, 2 threads at 480 t/s, MBA charges 1.0 + 0.55;
        // the second thread passes tau >= tau_hat and gets its own slot (resources clamp at 0).
        TopologyModel t = TopologyModel.withParallelism("star", ComponentGraph.chain("xml"), Map.of("xml", 2), 2);
        ClusterModel c = ClusterModel.of(List.of(Node.of("v1", List.of(1, 2))));
        Placement p = SlotAwareMapping.map(t, c, Map.of("xml", new ComponentAllocation(1.55, 1.23, 1))).orElseThrow();
        assertEquals(2, p.usedSlots().size());
    }

    @Test
    void failsAsAValueWhenAFullBundleFindsNoEmptySlot() {
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a"), Map.of("a", 4), 2);
        ClusterModel c = ClusterModel.of(List.of(Node.of("v1", List.of(1))));
        Outcome<Placement> o = SlotAwareMapping.map(t, c, Map.of("a", new ComponentAllocation(2.0, 2.0, 2)));
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().contains("full bundle"), o.reasonOrNull());
    }

    @Test
    void failsAsAValueWhenAPartialBundleFitsNowhere() {
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a", "b"), Map.of("a", 1, "b", 1), 2);
        ClusterModel c = ClusterModel.of(List.of(Node.of("v1", List.of(1))));
        Map<String, ComponentAllocation> alloc = Map.of(
                "a", new ComponentAllocation(0.7, 0.2, ComponentAllocation.NO_BUNDLE),
                "b", new ComponentAllocation(0.7, 0.2, ComponentAllocation.NO_BUNDLE));
        Outcome<Placement> o = SlotAwareMapping.map(t, c, alloc);
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().contains("partial bundle of 1 threads of b"), o.reasonOrNull());
    }

    @Test
    void missingAllocationIsAFailureValue() {
        Outcome<Placement> o = SlotAwareMapping.map(PaperFigure4.TOPOLOGY, PaperFigure4.CLUSTER, Map.of());
        assertFalse(o.isSuccess());
    }

    @Test
    void randomAllocationsRespectSlotResourcesAndExclusiveBundles() {
        Random rnd = new Random(42);
        int mapped = 0;
        for (int round = 0; round < 300; round++) {
            int components = 1 + rnd.nextInt(5);
            String[] names = new String[components];
            Map<String, Integer> threads = new HashMap<>();
            Map<String, ComponentAllocation> alloc = new HashMap<>();
            for (int i = 0; i < components; i++) {
                names[i] = "c" + i;
                int bundle = 1 + rnd.nextInt(4);
                int full = rnd.nextInt(3);
                int rest = rnd.nextInt(bundle);
                threads.put(names[i], full * bundle + rest + (full == 0 && rest == 0 ? 1 : 0));
                int restThreads = threads.get(names[i]) - full * bundle;
                double frac = restThreads == 0 ? 0 : 0.05 + 0.6 * rnd.nextDouble();
                alloc.put(names[i], new ComponentAllocation(full + frac, full + frac * rnd.nextDouble(), bundle));
            }
            TopologyModel t = TopologyModel.withParallelism("t" + round, ComponentGraph.chain(names), threads, 50);
            ClusterModel c = VmAcquisition.acquire(2 + rnd.nextInt(10), List.of(1, 2, 4));
            Outcome<Placement> o = SlotAwareMapping.map(t, c, alloc);
            if (!o.isSuccess()) {
                continue;
            }
            mapped++;
            Placement p = o.orElseThrow();
            PlacementChecks.assertCompleteAndOnUsableSlots(t, c, p);
            // A slot holding a full bundle holds nothing else; shared slots hold one partial bundle per task.
            for (Map.Entry<SlotId, List<ExecutorId>> s : p.executorsBySlot().entrySet()) {
                Map<String, Long> perTask = new HashMap<>();
                s.getValue().forEach(e -> perTask.merge(t.componentOf(e), 1L, Long::sum));
                for (Map.Entry<String, Long> task : perTask.entrySet()) {
                    if (task.getValue() >= alloc.get(task.getKey()).bundleSize()) {
                        assertEquals(1, perTask.size(), "full bundle shares slot " + s.getKey());
                    }
                }
            }
            assertEquals(p, SlotAwareMapping.map(t, c.withOwnedSlots(t.id(), p.usedSlots()), alloc).orElseThrow());
        }
        assertTrue(mapped > 100, "enough random cases map (" + mapped + ")");
    }

    private static void assertThreads(Placement p, String task, int from, int to, SlotId slot) {
        for (int k = from; k <= to; k++) {
            assertEquals(slot, p.slotOf(thread(task, k)).orElseThrow(), task + k);
        }
    }
}
