package io.nonstopstorm.scheduling.otd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class WorkerShareTest {

    @Test
    void aWorkersLoadIsAShareOfItsEvenPartOfTheRoomItsNodeLeavesButNeverBelowItsNodesUse() {
        Map<String, String> twoOnA = Map.of("a:1", "a", "a:2", "a");
        assertEquals(Map.of("a:1", 0.5, "a:2", 0.5), WorkerShare.fromRoom(twoOnA, Map.of("a:1", 0.5, "a:2", 0.5),
                Map.of("a", 2.0)), "2 cores left for 2 workers: 1 core each, 0.5 used");
        assertEquals(Map.of("a:1", 0.9, "a:2", 0.55), WorkerShare.fromRoom(twoOnA, Map.of("a:1", 0.45, "a:2", 0.1),
                Map.of("a", 1.0)), "the lighter worker counts as its node's use of the room");
    }

    @Test
    void unboundedUnknownAndExhaustedNodes() {
        Map<String, String> one = Map.of("a:1", "a");
        assertEquals(Map.of(), WorkerShare.fromRoom(one, Map.of("a:1", 3.0), Map.of("a", Double.POSITIVE_INFINITY)));
        assertEquals(Map.of(), WorkerShare.fromRoom(one, Map.of("a:1", 3.0), Map.of()));
        assertEquals(Map.of(), WorkerShare.fromRoom(one, Map.of(), Map.of("a", 1.0)), "no load, no share");
        assertEquals(Map.of("a:1", WorkerShare.SATURATED), WorkerShare.fromRoom(one, Map.of("a:1", 0.0), Map.of("a", 0.0)));
        assertEquals(Map.of("a:1", WorkerShare.SATURATED), WorkerShare.fromRoom(one, Map.of("a:1", 0.1), Map.of("a", -0.5)));
        assertEquals(Map.of("a:1", WorkerShare.SATURATED), WorkerShare.fromRoom(one, Map.of("a:1", 5.0), Map.of("a", 0.001)),
                "capped");
    }

    @Test
    void busyCoresBeyondTheTopologysOwnLoadShrinkTheRoomOnlyWhenGiven() {
        Map<String, String> one = Map.of("a:1", "a");
        assertEquals(0.25, WorkerShare.fromMeasurements(one, Map.of("a:1", 0.5),
                Map.of("a", new WorkerShare.NodeCpu(4, OptionalDouble.of(2.5)))).get("a:1"), 1e-12);
        assertEquals(0.125, WorkerShare.fromMeasurements(one, Map.of("a:1", 0.5),
                Map.of("a", new WorkerShare.NodeCpu(4, OptionalDouble.empty()))).get("a:1"), 1e-12);
        assertEquals(0.0, WorkerShare.background(0.5, 0.8), "windows measured apart: never below 0");
        assertEquals(1.5, WorkerShare.background(2.0, 0.5), 1e-12);
    }
}
