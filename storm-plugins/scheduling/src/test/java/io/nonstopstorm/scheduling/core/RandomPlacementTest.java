package io.nonstopstorm.scheduling.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.wire.ExecutorId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RandomPlacementTest {

    private static final ClusterModel NINE_SLOTS = ClusterModel.uniform(3, 3, 1.0);

    @Test
    void placesEveryExecutorOnAtMostTheTopologysWorkerCountOfUsableSlots() {
        Placement p = RandomPlacement.place(PaperFigure4.TOPOLOGY, NINE_SLOTS, Placement.empty(), new Random(1)).orElseThrow();
        assertEquals(PaperFigure4.TOPOLOGY.executorIdSet(), p.executors());
        assertTrue(p.usedSlots().size() <= PaperFigure4.TOPOLOGY.effectiveWorkers(), p.usedSlots().toString());
        assertTrue(p.usedSlots().stream().allMatch(NINE_SLOTS::hasSlot));
    }

    @Test
    void theSameSeedGivesTheSamePlacementAndSeedsDiffer() {
        Placement a = RandomPlacement.place(PaperFigure4.TOPOLOGY, NINE_SLOTS, Placement.empty(), new Random(7)).orElseThrow();
        Placement b = RandomPlacement.place(PaperFigure4.TOPOLOGY, NINE_SLOTS, Placement.empty(), new Random(7)).orElseThrow();
        assertEquals(a, b);
        Set<Placement> seen = new HashSet<>();
        for (long seed = 0; seed < 10; seed++) {
            seen.add(RandomPlacement.place(PaperFigure4.TOPOLOGY, NINE_SLOTS, Placement.empty(), new Random(seed)).orElseThrow());
        }
        assertTrue(seen.size() > 1, "ten seeds drew one placement");
    }

    @Test
    void slotsHeldByOtherTopologiesAreNotUsed() {
        Map<SlotId, String> owners = new TreeMap<>();
        for (SlotId s : NINE_SLOTS.allSlots()) {
            if (!s.nodeId().equals(NINE_SLOTS.nodes().get(2).id())) {
                owners.put(s, "other");
            }
        }
        ClusterModel busy = new ClusterModel(NINE_SLOTS.nodes(), owners);
        Placement p = RandomPlacement.place(PaperFigure4.TOPOLOGY, busy, Placement.empty(), new Random(3)).orElseThrow();
        assertEquals(Set.of(NINE_SLOTS.nodes().get(2).id()), p.usedNodes());
        ClusterModel full = new ClusterModel(NINE_SLOTS.nodes(), new TreeMap<>(Map.of()) {{
            NINE_SLOTS.allSlots().forEach(s -> put(s, "other"));
        }});
        assertTrue(RandomPlacement.place(PaperFigure4.TOPOLOGY, full, Placement.empty(), new Random(3)) instanceof Outcome.Failure);
    }

    @Test
    void executorsAlreadyPlacedStayWhereTheyAre() {
        List<ExecutorId> ids = PaperFigure4.TOPOLOGY.executorIds();
        SlotId kept = NINE_SLOTS.allSlots().get(4);
        Placement current = Placement.of(Map.of(ids.get(0), kept, ids.get(1), kept));
        for (long seed = 0; seed < 5; seed++) {
            Placement p = RandomPlacement.place(PaperFigure4.TOPOLOGY, NINE_SLOTS, current, new Random(seed)).orElseThrow();
            assertEquals(kept, p.slotOf(ids.get(0)).orElseThrow());
            assertEquals(kept, p.slotOf(ids.get(1)).orElseThrow());
            assertNotEquals(0, p.size());
        }
    }
}
