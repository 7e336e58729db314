package io.nonstopstorm.scheduling.otd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** OTD's four cases and its edges on hand-made clusters: two nodes a and b, two workers each. */
class OtdTest {
    private static final OtdParams P = new OtdParams(0.8, 0.5, 1000, 100, 10.0, 0);
    /** P, but Algorithm 1 relieves onto other nodes only. */
    private static final OtdParams ACROSS = new OtdParams(0.8, 0.5, 1000, 100, 10.0, 0, false, false);

    private static WorkerLoad w(String id, String node, double cpu) {
        return new WorkerLoad(id, node, cpu, 0);
    }

    private static Map<OtdSnapshot.Pair, Double> traffic(Object... fromToRate) {
        Map<OtdSnapshot.Pair, Double> m = new HashMap<>();
        for (int i = 0; i < fromToRate.length; i += 3) {
            m.put(new OtdSnapshot.Pair((String) fromToRate[i], (String) fromToRate[i + 1]),
                ((Number) fromToRate[i + 2]).doubleValue());
        }
        return m;
    }

    /** e1,e2 on a1; e3 on a2; e4,e5 on b1; e6 on b2. */
    private static Map<String, String> placement() {
        return Map.of("e1", "a1", "e2", "a1", "e3", "a2", "e4", "b1", "e5", "b1", "e6", "b2");
    }

    @Test
    void case1MovesTheBestAscExecutorOffTheMostLoadedWorker() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.95), w("a2", "a", 0.6), w("b1", "b", 0.4), w("b2", "b", 0.2));
        // e2 talks mostly to e4 on node b: moving it to b gains 100 - 5.
        var s = new OtdSnapshot(ws, placement(), traffic("e2", "e4", 100, "e1", "e2", 5, "e1", "e3", 50));
        var d = (OtdDecision.Move) Otd.decide(s, P, Set.of());
        assertEquals(1, d.paperCase());
        assertEquals("e2", d.executor());
        assertEquals("a1", d.fromWorker());
        assertEquals("b2", d.toWorker()); // the least-loaded worker of node b
        assertEquals(95.0, d.asc(), 1e-9);
    }

    @Test
    void case1StillBalancesWhenEveryMoveCostsTraffic() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.9), w("a2", "a", 0.7), w("b1", "b", 0.3), w("b2", "b", 0.6));
        var s = new OtdSnapshot(ws, placement(), traffic("e1", "e2", 40, "e2", "e3", 30));
        var d = (OtdDecision.Move) Otd.decide(s, P, Set.of());
        // e1 loses 40, e2 loses 70 of intra-node traffic by leaving node a: the lesser harm wins.
        assertEquals("e1", d.executor());
        assertEquals("b1", d.toWorker());
        assertEquals(-40.0, d.asc(), 1e-9);
    }

    @Test
    void case1ReliefInsideTheNodeOnlyWhenAllowed() {
        // a1 is overloaded; the only LOW workers are a2 (its own node) and b2 (busier, on node b).
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.95), w("a2", "a", 0.3), w("b1", "b", 0.7), w("b2", "b", 0.45));
        // e1 and e2 talk to e3 on node a: inside node a a move costs nothing (ASC 0), to node b it costs traffic.
        var s = new OtdSnapshot(ws, placement(), traffic("e1", "e3", 20, "e2", "e3", 30));
        var inside = (OtdDecision.Move) Otd.decide(s, P, Set.of());
        assertEquals("a2", inside.toWorker());
        assertEquals(0.0, inside.asc(), 1e-9);
        var d = (OtdDecision.Move) Otd.decide(s, ACROSS, Set.of());
        assertEquals("b2", d.toWorker());
        assertEquals("e1", d.executor()); // the lesser traffic lost by leaving node a
        assertEquals(-20.0, d.asc(), 1e-9);
    }

    @Test
    void case1WithNoLowWorkerOnAnotherNodeSaysSo() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.95), w("a2", "a", 0.3), w("b1", "b", 0.7), w("b2", "b", 0.6));
        var s = new OtdSnapshot(ws, placement(), Map.of());
        var none = assertInstanceOf(OtdDecision.NoAction.class, Otd.decide(s, ACROSS, Set.of()));
        assertEquals(1, none.paperCase());
        assertTrue(none.reason().contains("no LOW worker with room on another node"), none.reason());
        var pinned = assertInstanceOf(OtdDecision.NoAction.class, Otd.decide(s, P, Set.of("e1", "e2")));
        assertTrue(pinned.reason().contains("no movable executor"), pinned.reason());
        var moved = (OtdDecision.Move) Otd.decide(s, P, Set.of());
        assertEquals("a2", moved.toWorker());
    }

    @Test
    void case2WarnsOfLackingResources() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.95), w("a2", "a", 0.7), w("b1", "b", 0.85), w("b2", "b", 0.6));
        var d = assertInstanceOf(OtdDecision.LackingResources.class, Otd.decide(new OtdSnapshot(ws, placement(),
            Map.of()), P, Set.of()));
        assertEquals(List.of("a1", "b1"), d.highLoadWorkers());
        assertEquals(2, d.paperCase());
    }

    @Test
    void queueLengthAloneMakesAWorkerHigh() {
        var busy = new WorkerLoad("a1", "a", 0.1, 5000);
        assertEquals(LoadClass.HIGH, LoadClass.of(busy, P));
        assertEquals(LoadClass.NORMAL, LoadClass.of(new WorkerLoad("x", "a", 0.1, 500), P));
        assertEquals(LoadClass.LOW, LoadClass.of(new WorkerLoad("x", "a", 0.5, 100), P));
    }

    @Test
    void case3MovesOnlyAboveTheThreshold() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.3), w("a2", "a", 0.3), w("b1", "b", 0.3), w("b2", "b", 0.3));
        // e3 and e6 are alone on their workers, so their 30 t/s cannot be won by moving them.
        var stuck = new OtdSnapshot(ws, placement(), traffic("e3", "e6", 30));
        assertInstanceOf(OtdDecision.NoAction.class, Otd.decide(stuck, P, Set.of()));
        var gain = new OtdSnapshot(ws, placement(), traffic("e1", "e4", 30));
        var d = (OtdDecision.Move) Otd.decide(gain, P, Set.of());
        assertEquals(3, d.paperCase());
        assertEquals(30.0, d.asc(), 1e-9);
        assertTrue(d.executor().equals("e1") && d.toWorker().startsWith("b")
            || d.executor().equals("e4") && d.toWorker().startsWith("a"), d.toString());

        var small = new OtdSnapshot(ws, placement(), traffic("e1", "e4", 10));
        var none = assertInstanceOf(OtdDecision.NoAction.class, Otd.decide(small, P, Set.of()));
        assertEquals(3, none.paperCase()); // gain 10 is not > threshold 10
        var just = new OtdSnapshot(ws, placement(), traffic("e1", "e4", 10.001));
        assertInstanceOf(OtdDecision.Move.class, Otd.decide(just, P, Set.of()));
    }

    @Test
    void case3PicksTheLargestGainAndItsPartnerNode() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.3), w("a2", "a", 0.2), w("b1", "b", 0.3), w("b2", "b", 0.1));
        var s = new OtdSnapshot(ws, placement(), traffic("e1", "e4", 20, "e4", "e1", 20, "e5", "e2", 70, "e2", "e1", 8));
        var d = (OtdDecision.Move) Otd.decide(s, P, Set.of());
        // e5 -> node a gains 70; e2 -> node b gains 70 - 8 = 62; e1 -> b gains 40 - 8 = 32.
        assertEquals("e5", d.executor());
        assertEquals("a2", d.toWorker()); // of node a's LOW workers, the less loaded
        assertEquals(70.0, d.asc(), 1e-9);
    }

    @Test
    void case4DoesNothing() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.6), w("a2", "a", 0.7), w("b1", "b", 0.65), w("b2", "b", 0.6));
        var d = assertInstanceOf(OtdDecision.NoAction.class, Otd.decide(new OtdSnapshot(ws, placement(),
            traffic("e1", "e4", 1000)), P, Set.of()));
        assertEquals(4, d.paperCase());
    }

    @Test
    void pinnedExecutorsAndFullWorkersAreNotCandidates() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.3), w("a2", "a", 0.3), w("b1", "b", 0.3), w("b2", "b", 0.3));
        var s = new OtdSnapshot(ws, placement(), traffic("e5", "e2", 70, "e1", "e4", 50));
        var d = (OtdDecision.Move) Otd.decide(s, P, Set.of("e5"));
        // e5 is pinned (moved recently), so its partner e2 follows it to node b instead.
        assertEquals("e2", d.executor());
        assertEquals(70.0, d.asc(), 1e-9);
        // With every worker at 2 executors as the limit, only b2 and a2 (1 each) have room.
        var capped = new OtdParams(0.8, 0.5, 1000, 100, 10.0, 2);
        var c = (OtdDecision.Move) Otd.decide(s, capped, Set.of());
        assertTrue(Set.of("a2", "b2").contains(c.toWorker()), c.toString());
    }

    @Test
    void aWorkersLastExecutorNeverMovesByDefault() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.95), w("b1", "b", 0.1));
        var s = new OtdSnapshot(ws, Map.of("e1", "a1", "e2", "b1"), traffic("e1", "e2", 500));
        var d = assertInstanceOf(OtdDecision.NoAction.class, Otd.decide(s, P, Set.of()));
        assertEquals(1, d.paperCase());
    }

    @Test
    void aWorkersLastExecutorMovesWhenTheParametersAllowIt() {
        var mayTakeLast = new OtdParams(0.8, 0.5, 1000, 100, 10.0, 0, true);
        // Algorithm 1: the overloaded worker's only executor goes to the other node.
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.95), w("b1", "b", 0.1));
        var s = new OtdSnapshot(ws, Map.of("e1", "a1", "e2", "b1"), traffic("e1", "e2", 500));
        var d = assertInstanceOf(OtdDecision.Move.class, Otd.decide(s, mayTakeLast, Set.of()));
        assertEquals(1, d.paperCase());
        assertEquals("e1", d.executor());
        // Algorithm 2 (every worker LOW), e1 and e4 pinned: e3, alone in a2, joins e4 on node b.
        List<WorkerLoad> low = List.of(w("a1", "a", 0.2), w("a2", "a", 0.2), w("b1", "b", 0.2));
        var t = new OtdSnapshot(low, Map.of("e1", "a1", "e3", "a2", "e4", "b1"), traffic("e3", "e4", 300, "e1", "e4", 400));
        assertInstanceOf(OtdDecision.NoAction.class, Otd.decide(t, P, Set.of("e1", "e4")));
        var m = assertInstanceOf(OtdDecision.Move.class, Otd.decide(t, mayTakeLast, Set.of("e1", "e4")));
        assertEquals(3, m.paperCase());
        assertEquals("e3", m.executor());
        assertEquals("b1", m.toWorker());
        assertEquals(300.0, m.asc(), 1e-9);
    }

    @Test
    void tiesAreBrokenDeterministically() {
        List<WorkerLoad> ws = List.of(w("a1", "a", 0.3), w("a2", "a", 0.3), w("b1", "b", 0.3), w("b2", "b", 0.3));
        var s = new OtdSnapshot(ws, placement(), traffic("e1", "e4", 50, "e2", "e5", 50));
        var first = Otd.decide(s, P, Set.of());
        for (int i = 0; i < 5; i++) {
            assertEquals(first, Otd.decide(s, P, Set.of()));
        }
        assertEquals("e1", ((OtdDecision.Move) first).executor()); // equal gains: smaller id
        assertEquals("b1", ((OtdDecision.Move) first).toWorker()); // equal loads: smaller id
    }

    @Test
    void badSnapshotsAreRejectedWithTheReason() {
        var e = assertThrows(IllegalArgumentException.class, () -> new OtdSnapshot(List.of(w("a1", "a", 0.1)),
            Map.of("e1", "zz"), Map.of()));
        assertEquals("executor e1 is on unknown worker zz", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new OtdParams(0.5, 0.8, 1000, 100, 0, 0));
    }
}
