package io.nonstopstorm.scheduling.core;

import java.util.List;
import java.util.Map;

/**
 * Local search over executor → node assignments for the refined online scheduler: executor moves and
 * swaps between nodes, each strictly cutting inter-node traffic, until a sweep changes nothing.
 *
 * <p>Why at node level: inter-node traffic depends only on each executor's node, and whether some split
 * into workers exists depends only on the per-node counts (k executors on a node need between ⌈k/M⌉ and
 * min(k, ports) workers, and these ranges must admit exactly W' in all). So a move here is checked
 * against exactly the constraints that matter, where {@link InterNodeLocalSearch}, which keeps workers
 * fixed, refuses a move into a full worker even when the node could open or rebalance one. The workers
 * are chosen afterwards ({@link FeasibleNodeSearch#split}).
 */
final class NodeLevelLocalSearch extends PlacementSearch {

    private final int[] nodeOf;
    private final int[] count;
    private final double[] used;
    private int minWorkersNeeded;
    private int maxWorkersPossible;

    /** @param nodeOf executor → node, a feasible assignment (modified in place) */
    NodeLevelLocalSearch(int[] nodeOf, double[] load, List<Map<Integer, Double>> adjacency, int perWorkerLimit,
                         int workers, int[] ports, double[] room) {
        super(load, adjacency, perWorkerLimit, workers, ports, room);
        this.nodeOf = nodeOf;
        this.count = new int[ports.length];
        this.used = new double[ports.length];
        for (int e = 0; e < nodeOf.length; e++) {
            count[nodeOf[e]]++;
            used[nodeOf[e]] += load[e];
        }
        for (int n = 0; n < ports.length; n++) {
            minWorkersNeeded += need(count[n]);
            maxWorkersPossible += Math.min(count[n], ports[n]);
        }
    }

    void run(int maxSweeps) {
        for (int sweep = 0; sweep < maxSweeps; sweep++) {
            boolean improved = moveExecutors() | swapExecutors();
            if (!improved) {
                return;
            }
        }
    }

    private int need(int executors) {
        return ExecutorsPerSlotLimit.ceilDiv(executors, perWorkerLimit);
    }

    /** Change in inter-node traffic if executor e sat on node {@code to}, ignoring its link to {@code except}. */
    private double moveDelta(int e, int to, int except) {
        int from = nodeOf[e];
        double delta = 0;
        for (Map.Entry<Integer, Double> n : adjacency.get(e).entrySet()) {
            int x = n.getKey();
            if (x == except) {
                continue;
            }
            int nx = nodeOf[x];
            delta += n.getValue() * ((nx != to ? 1 : 0) - (nx != from ? 1 : 0));
        }
        return delta;
    }

    /** Whether one executor may leave {@code from} for {@code to} as far as worker counts go. */
    private boolean countsAllowMove(int from, int to) {
        int needAfter = minWorkersNeeded - need(count[from]) + need(count[from] - 1)
                - need(count[to]) + need(count[to] + 1);
        int possibleAfter = maxWorkersPossible - Math.min(count[from], ports[from]) + Math.min(count[from] - 1, ports[from])
                - Math.min(count[to], ports[to]) + Math.min(count[to] + 1, ports[to]);
        return need(count[to] + 1) <= ports[to] && needAfter <= workers && workers <= possibleAfter;
    }

    private void move(int e, int to) {
        int from = nodeOf[e];
        minWorkersNeeded += need(count[from] - 1) - need(count[from]) + need(count[to] + 1) - need(count[to]);
        maxWorkersPossible += Math.min(count[from] - 1, ports[from]) - Math.min(count[from], ports[from])
                + Math.min(count[to] + 1, ports[to]) - Math.min(count[to], ports[to]);
        count[from]--;
        count[to]++;
        used[from] -= load[e];
        used[to] += load[e];
        nodeOf[e] = to;
    }

    private boolean moveExecutors() {
        boolean improved = false;
        for (int e = 0; e < nodeOf.length; e++) {
            int from = nodeOf[e];
            int bestNode = -1;
            double best = -EPS;
            for (int to = 0; to < ports.length; to++) {
                if (to == from || ports[to] == 0 || used[to] + load[e] > room[to] + EPS || !countsAllowMove(from, to)) {
                    continue;
                }
                double d = moveDelta(e, to, -1);
                if (d < best) {
                    best = d;
                    bestNode = to;
                }
            }
            if (bestNode >= 0) {
                move(e, bestNode);
                improved = true;
            }
        }
        return improved;
    }

    private boolean swapExecutors() {
        boolean improved = false;
        for (int a = 0; a < nodeOf.length; a++) {
            for (int b = a + 1; b < nodeOf.length; b++) {
                int na = nodeOf[a];
                int nb = nodeOf[b];
                if (na == nb
                        || used[na] - load[a] + load[b] > room[na] + EPS
                        || used[nb] - load[b] + load[a] > room[nb] + EPS
                        || moveDelta(a, nb, b) + moveDelta(b, na, a) >= -EPS) {
                    continue;
                }
                // Counts per node are unchanged by a swap, so the worker-count constraints still hold.
                nodeOf[a] = nb;
                nodeOf[b] = na;
                used[na] += load[b] - load[a];
                used[nb] += load[a] - load[b];
                improved = true;
            }
        }
        return improved;
    }
}
