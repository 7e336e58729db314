package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class InterNodeTrafficTest {

    @Test
    void countsOnlyFlowsBetweenPlacedExecutorsOnDifferentNodesOrSlots() {
        ExecutorId a = ExecutorId.single(1);
        ExecutorId b = ExecutorId.single(2);
        ExecutorId c = ExecutorId.single(3);
        ExecutorId unplaced = ExecutorId.single(4);
        TrafficMatrix t = TrafficMatrix.builder()
                .add(a, b, 5).add(b, a, 1)      // same node, different slots
                .add(a, c, 7)                    // different nodes
                .add(c, unplaced, 100)           // endpoint not placed
                .add(a, a, 50)                   // self-flow, dropped
                .build();
        Placement p = Placement.of(Map.of(a, new SlotId("n1", 1), b, new SlotId("n1", 2), c, new SlotId("n2", 1)));
        assertEquals(7, InterNodeTraffic.of(t, p), 1e-9);
        assertEquals(13, InterNodeTraffic.betweenSlots(t, p), 1e-9);
        assertEquals(6, t.between(a, b), 1e-9);
    }
}
