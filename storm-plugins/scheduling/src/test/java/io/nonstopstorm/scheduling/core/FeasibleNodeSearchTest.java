package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeasibleNodeSearchTest {

    private static List<Map<Integer, Double>> noTraffic(int executors) {
        List<Map<Integer, Double>> adjacency = new ArrayList<>();
        for (int i = 0; i < executors; i++) {
            adjacency.add(new TreeMap<>());
        }
        return adjacency;
    }

    private static void link(List<Map<Integer, Double>> adjacency, int a, int b, double rate) {
        adjacency.get(a).put(b, rate);
        adjacency.get(b).put(a, rate);
    }

    private static void assertMeetsConstraints(FeasibleNodeSearch.Assignment a, double[] load, int limit, int workers,
                                               int[] ports, double[] room) {
        int[] size = new int[workers];
        for (int w : a.workerOf()) {
            size[w]++;
        }
        for (int w = 0; w < workers; w++) {
            assertTrue(size[w] >= 1 && size[w] <= limit, "worker " + w + " holds " + size[w]);
        }
        int[] workersOn = new int[ports.length];
        for (int n : a.nodeOfWorker()) {
            workersOn[n]++;
        }
        double[] used = new double[ports.length];
        for (int e = 0; e < load.length; e++) {
            used[a.nodeOfWorker()[a.workerOf()[e]]] += load[e];
        }
        for (int n = 0; n < ports.length; n++) {
            assertTrue(workersOn[n] <= ports[n], "node " + n + " ports");
            assertTrue(used[n] <= room[n] + 1e-9, "node " + n + " load " + used[n] + " room " + room[n]);
        }
    }

    @Test
    void packsATightInstanceThatGreedyFirstFitMisses() {
        // Rooms 10 and 10; loads 6, 5, 5, 4: only {6,4} + {5,5} fits. Heavy traffic pulls 6 and 5 together.
        double[] load = {6, 5, 5, 4};
        List<Map<Integer, Double>> adjacency = noTraffic(4);
        link(adjacency, 0, 1, 100);
        int[] ports = {2, 2};
        double[] room = {10, 10};
        FeasibleNodeSearch s = new FeasibleNodeSearch(load, adjacency, 2, 2, ports, room);
        for (var order : List.of(s.byTrafficDescending(), s.byLoadDescending())) {
            FeasibleNodeSearch.Assignment a = s.find(order, 1_000).orElseThrow();
            assertMeetsConstraints(a, load, 2, 2, ports, room);
            assertEquals(a.nodeOfWorker()[a.workerOf()[0]], a.nodeOfWorker()[a.workerOf()[3]]);
        }
    }

    @Test
    void usesExactlyTheWorkerCountWithinThePerWorkerLimit() {
        // 5 executors, 3 workers, at most 2 each: node counts must split as 2+2+1 workers-wise.
        double[] load = {1, 1, 1, 1, 1};
        int[] ports = {1, 3};
        double[] room = {2, 100};
        FeasibleNodeSearch s = new FeasibleNodeSearch(load, noTraffic(5), 2, 3, ports, room);
        FeasibleNodeSearch.Assignment a = s.find(s.byLoadDescending(), 1_000).orElseThrow();
        assertMeetsConstraints(a, load, 2, 3, ports, room);
    }

    @Test
    void provesInfeasibilityCheaply() {
        FeasibleNodeSearch tooMuchLoad = new FeasibleNodeSearch(new double[] {6, 6}, noTraffic(2), 2, 2,
                new int[] {1, 1}, new double[] {5, 6});
        assertTrue(tooMuchLoad.find(tooMuchLoad.byLoadDescending(), 1).reasonOrNull().contains("total load"));

        FeasibleNodeSearch tooBig = new FeasibleNodeSearch(new double[] {7, 1}, noTraffic(2), 2, 1,
                new int[] {1, 1}, new double[] {5, 6});
        assertTrue(tooBig.find(tooBig.byLoadDescending(), 1).reasonOrNull().contains("every node's room"));

        FeasibleNodeSearch tooFewPorts = new FeasibleNodeSearch(new double[] {1, 1, 1, 1, 1}, noTraffic(5), 2, 2,
                new int[] {1, 1, 0}, new double[] {9, 9, 9});
        assertTrue(tooFewPorts.find(tooFewPorts.byLoadDescending(), 1).reasonOrNull().contains("hold at most 4"));

        // Six executors of load 1, rooms 10 and 2, one port each and M = 3: the room would do (6 <= 12), but
        // the first node carries at most 3 executors (one worker of 3) and the second at most its room, 2.
        FeasibleNodeSearch carry = new FeasibleNodeSearch(new double[] {1, 1, 1, 1, 1, 1}, noTraffic(6), 3, 2,
                new int[] {1, 1}, new double[] {10, 2});
        assertTrue(carry.find(carry.byLoadDescending(), 1).reasonOrNull().contains("can carry"),
                carry.find(carry.byLoadDescending(), 1).reasonOrNull());
    }

    /**
     * Rooms 10, 10, loads 6, 6, 6 (total 18 <= 20, each fits, but no two share a node), searched with this
     * many steps at most: the search must fail; its reason.
     */
    private static String threeSixesOnTwoTensRefused(int maxSteps) {
        FeasibleNodeSearch s = new FeasibleNodeSearch(new double[] {6, 6, 6}, noTraffic(3), 3, 2,
                new int[] {2, 2}, new double[] {10, 10});
        Outcome<FeasibleNodeSearch.Assignment> o = s.find(s.byLoadDescending(), maxSteps);
        assertFalse(o.isSuccess());
        return o.reasonOrNull();
    }

    @Test
    void provesInfeasibilityByExhaustiveSearchWhenNoCheapBoundApplies() {
        String reason = threeSixesOnTwoTensRefused(1_000);
        assertTrue(reason.startsWith("no room: no placement satisfies"), reason);
    }

    @Test
    void saysWhenItStoppedAtTheBoundWithoutAProof() {
        String reason = threeSixesOnTwoTensRefused(2);
        assertTrue(reason.contains("not proven infeasible"), reason);
    }

    @Test
    void searchesThousandsOfExecutorsWithoutDeepRecursion() {
        // One search level per executor: 20 000 levels would overflow a recursive search's stack.
        int executors = 20_000;
        double[] load = new double[executors];
        java.util.Arrays.fill(load, 1);
        int[] ports = new int[20];
        double[] room = new double[20];
        java.util.Arrays.fill(ports, 10);
        java.util.Arrays.fill(room, 1_000);
        FeasibleNodeSearch s = new FeasibleNodeSearch(load, noTraffic(executors), 100, 200, ports, room);
        FeasibleNodeSearch.Assignment a = s.find(s.byLoadDescending(), 2L * executors).orElseThrow();
        assertMeetsConstraints(a, load, 100, 200, ports, room);
    }
}
