package io.nonstopstorm.scheduling.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

class NodeLevelLocalSearchTest {

    /** 0-1 and 2-3 exchange 100 tuple/s, 1-2 exchanges 1; executor 1 starts away from its partner. */
    private static final double[] LOAD = {1, 1, 1, 1};

    private static List<Map<Integer, Double>> adjacency() {
        List<Map<Integer, Double>> adjacency = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            adjacency.add(new TreeMap<>());
        }
        double[][] links = {{0, 1, 100}, {2, 3, 100}, {1, 2, 1}};
        for (double[] t : links) {
            adjacency.get((int) t[0]).put((int) t[1], t[2]);
            adjacency.get((int) t[1]).put((int) t[0], t[2]);
        }
        return adjacency;
    }

    private static int[] search(int perWorkerLimit, int workers, int[] ports, double[] room) {
        int[] nodeOf = {0, 1, 1, 1};
        new NodeLevelLocalSearch(nodeOf, LOAD, adjacency(), perWorkerLimit, workers, ports, room).run(10);
        return nodeOf;
    }

    @Test
    void movesAnExecutorToItsPartnersNode() {
        // W' = 3, M = 2: after the move node 0 holds 2 (1 or 2 workers), node 1 holds 2: 3 workers still fit.
        assertArrayEquals(new int[] {0, 0, 1, 1}, search(2, 3, new int[] {2, 2}, new double[] {10, 10}));
    }

    @Test
    void neverExceedsANodesRoom() {
        assertArrayEquals(new int[] {0, 1, 1, 1}, search(2, 3, new int[] {2, 2}, new double[] {1, 10}));
    }

    @Test
    void keepsAWorkerSplitPossible() {
        // M = 1, W' = 4: two executors on node 0 would need two workers, but node 0 has one port.
        assertArrayEquals(new int[] {0, 1, 1, 1}, search(1, 4, new int[] {1, 3}, new double[] {10, 10}));
        assertArrayEquals(new int[] {0, 0, 1, 1}, search(1, 4, new int[] {2, 3}, new double[] {10, 10}));
    }
}
