package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.TopologyModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RStormMappingTest {

    private static final List<Integer> AZURE_D1_TO_D3 = List.of(1, 2, 4);

    @Test
    void acquiresLargestVmsFirstThenTheSmallestThatCoversTheRest() {
        assertEquals(List.of(4, 4), sizes(VmAcquisition.acquire(7, AZURE_D1_TO_D3)));
        assertEquals(List.of(4, 2), sizes(VmAcquisition.acquire(6, AZURE_D1_TO_D3)));
        assertEquals(List.of(4, 1), sizes(VmAcquisition.acquire(5, AZURE_D1_TO_D3)));
        assertEquals(List.of(4, 4, 4, 4, 4, 4, 1), sizes(VmAcquisition.acquire(25, AZURE_D1_TO_D3)));
        assertEquals(List.of(), sizes(VmAcquisition.acquire(0, AZURE_D1_TO_D3)));
    }

    @Test
    void fragmentsMemoryAndFailsAlthoughTheTotalFits() {
        // a: 3 threads × 30 % memory, b: 2 threads × 50 %; total 190 % on 2 slots, yet one-thread-per-sweep
        // packing leaves 20 % holes in both slots before a3 arrives.
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a", "b"), Map.of("a", 3, "b", 2), 2);
        Map<String, ThreadDemand> demand = Map.of("a", new ThreadDemand(0.1, 0.3), "b", new ThreadDemand(0.1, 0.5));
        ClusterModel oneVm = ClusterModel.of(List.of(Node.of("vm1", List.of(1, 2))));
        Outcome<Placement> o = RStormMapping.map(t, oneVm, demand, RStormMapping.Weights.UNIT, Map.of());
        assertFalse(o.isSuccess());
        assertTrue(o.reasonOrNull().contains("thread of a (2 of 3 mapped)"), o.reasonOrNull());

        Outcome<Integer> slots = VmAcquisition.slotsUntilMapped(2, 10, AZURE_D1_TO_D3,
                c -> RStormMapping.map(t, c, demand, RStormMapping.Weights.UNIT, Map.of()));
        assertEquals(3, slots.orElseThrow());
    }

    @Test
    void bestFitDistanceKeepsThreadsOnTheFullerReferenceVm() {
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a", "b"), Map.of("a", 2, "b", 2), 4);
        Map<String, ThreadDemand> demand = Map.of("a", new ThreadDemand(0.2, 0.2), "b", new ThreadDemand(0.2, 0.2));
        ClusterModel twoVms = VmAcquisition.acquire(4, List.of(2));
        Placement p = RStormMapping.map(t, twoVms, demand, RStormMapping.Weights.UNIT, Map.of()).orElseThrow();
        assertEquals(java.util.Set.of("vm1"), p.usedNodes());
        assertEquals(1, p.usedSlots().size(), "first-fit slot within the VM while memory lasts");
    }

    @Test
    void cpuIsCheckedPerVmNotPerSlot() {
        // Three threads of 60 % CPU and 10 % memory: one slot's memory holds all, the VM's 200 % CPU holds three.
        TopologyModel t = TopologyModel.withParallelism("t", ComponentGraph.chain("a"), Map.of("a", 3), 2);
        Placement p = RStormMapping.map(t, VmAcquisition.acquire(2, List.of(2)), Map.of("a", new ThreadDemand(0.6, 0.1)),
                RStormMapping.Weights.UNIT, Map.of()).orElseThrow();
        assertEquals(1, p.usedSlots().size());
    }

    /**
     * Linear DAG at 200 t/s under LSA (Shukla &amp; Simmhan §8.4: LSA allocates 25 slots, RSM fails until 28).
     * Thread counts follow the paper (Blob 100, Table 67, Pi 2, XML 1, FileWrite 1); the single-thread
     * CPU/memory of Pi, Table and FileWrite are lost in the seed and reconstructed from the stated Linear@50
     * totals (CPU 2.42, memory 6.23), so only the qualitative claim is asserted: RSM fails on the LSA slot
     * count and needs more (27 with these values; the paper reports 28).
     */
    @Test
    void linearAt200NeedsMoreSlotsThanLsaAllocates() {
        TopologyModel linear = TopologyModel.withParallelism("linear",
                ComponentGraph.chain("blob", "table", "pi", "xml", "file"),
                Map.of("blob", 100, "table", 67, "pi", 2, "xml", 1, "file", 1), 100);
        Map<String, ThreadDemand> demand = Map.of(
                "blob", new ThreadDemand(0.0674, 0.2392),
                "table", new ThreadDemand(0.009, 0.011),
                "pi", new ThreadDemand(0.9, 0.03),
                "xml", new ThreadDemand(0.85, 0.2298),
                "file", new ThreadDemand(0.05, 0.01));
        double memory = 100 * 0.2392 + 67 * 0.011 + 2 * 0.03 + 0.2298 + 0.01;
        int lsaSlots = (int) Math.ceil(memory);
        assertEquals(25, lsaSlots);
        Outcome<Integer> needed = VmAcquisition.slotsUntilMapped(lsaSlots, 40, AZURE_D1_TO_D3,
                c -> RStormMapping.map(linear, c, demand, RStormMapping.Weights.UNIT, Map.of()));
        System.out.println("RSM on reconstructed Linear@200 (LSA 25 slots) maps with " + needed.orElseThrow() + " slots");
        assertTrue(needed.orElseThrow() > lsaSlots);
    }

    private static List<Integer> sizes(ClusterModel c) {
        return c.nodes().stream().map(n -> n.ports().size()).toList();
    }
}
