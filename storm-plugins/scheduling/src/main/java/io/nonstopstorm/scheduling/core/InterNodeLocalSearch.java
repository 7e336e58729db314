package io.nonstopstorm.scheduling.core;

import java.util.List;
import java.util.Map;

/**
 * Optional refinement after Aniello's two greedy phases (our addition, not in the paper): repeatedly
 * apply any move that strictly lowers inter-node traffic while keeping every constraint of the online
 * formulation. Moves: one executor to another worker on another node; two executors on different nodes
 * swap workers; one worker to a free usable port on another node; two workers on different nodes swap
 * nodes; all of a node's workers together to
 * another node with enough free ports (escapes the case where phase 2 opened a node with too few ports). Sweeps run in a fixed order until one
 * changes nothing or {@code maxSweeps} is reached, so the result is deterministic.
 *
 * <p>Why: phase 1 fixes each worker's executors before node capacities are known, and phase 2 can then
 * only move whole workers; a few single-executor corrections close most of the gap to the optimum.
 */
final class InterNodeLocalSearch extends PlacementSearch {

    private final int[] workerOf;
    private final int[] nodeOfWorker;
    private final int[] workerSize;
    private final double[] nodeLoad;
    private final int[] workersOnNode;

    /**
     * @param workerOf      executor → worker (modified in place)
     * @param nodeOfWorker  worker → node (modified in place)
     * @param roomOfNode    node capacity minus background
     * @param portsOfNode   usable ports per node
     */
    InterNodeLocalSearch(int[] workerOf, int[] nodeOfWorker, double[] load, List<Map<Integer, Double>> adjacency,
                         int perWorkerLimit, int[] portsOfNode, double[] roomOfNode) {
        super(load, adjacency, perWorkerLimit, nodeOfWorker.length, portsOfNode, roomOfNode);
        this.workerOf = workerOf;
        this.nodeOfWorker = nodeOfWorker;
        this.workerSize = new int[nodeOfWorker.length];
        this.nodeLoad = new double[ports.length];
        this.workersOnNode = new int[ports.length];
        for (int e = 0; e < workerOf.length; e++) {
            workerSize[workerOf[e]]++;
            nodeLoad[nodeOfWorker[workerOf[e]]] += load[e];
        }
        for (int node : nodeOfWorker) {
            workersOnNode[node]++;
        }
    }

    void run(int maxSweeps) {
        for (int sweep = 0; sweep < maxSweeps; sweep++) {
            boolean improved = moveExecutors() | swapExecutors() | moveWorkers() | swapWorkers() | moveNodeGroups();
            if (!improved) {
                return;
            }
        }
    }

    private int nodeOf(int executor) {
        return nodeOfWorker[workerOf[executor]];
    }

    /** Change in inter-node traffic if executor e sat on node {@code to} instead of its node, ignoring {@code except}. */
    private double moveDelta(int e, int to, int except) {
        int from = nodeOf(e);
        double delta = 0;
        for (Map.Entry<Integer, Double> n : adjacency.get(e).entrySet()) {
            int x = n.getKey();
            if (x == except) {
                continue;
            }
            int nx = nodeOf(x);
            delta += n.getValue() * ((nx != to ? 1 : 0) - (nx != from ? 1 : 0));
        }
        return delta;
    }

    private boolean moveExecutors() {
        boolean improved = false;
        for (int e = 0; e < workerOf.length; e++) {
            int from = workerOf[e];
            if (workerSize[from] < 2) {
                continue; // every worker must keep at least one executor
            }
            int bestWorker = -1;
            double best = -EPS;
            for (int w = 0; w < nodeOfWorker.length; w++) {
                int node = nodeOfWorker[w];
                if (node == nodeOfWorker[from] || workerSize[w] >= perWorkerLimit
                        || nodeLoad[node] + load[e] > room[node] + EPS) {
                    continue;
                }
                double d = moveDelta(e, node, -1);
                if (d < best) {
                    best = d;
                    bestWorker = w;
                }
            }
            if (bestWorker >= 0) {
                nodeLoad[nodeOfWorker[from]] -= load[e];
                nodeLoad[nodeOfWorker[bestWorker]] += load[e];
                workerSize[from]--;
                workerSize[bestWorker]++;
                workerOf[e] = bestWorker;
                improved = true;
            }
        }
        return improved;
    }

    private boolean swapExecutors() {
        boolean improved = false;
        for (int a = 0; a < workerOf.length; a++) {
            for (int b = a + 1; b < workerOf.length; b++) {
                int na = nodeOf(a);
                int nb = nodeOf(b);
                if (na == nb) {
                    continue;
                }
                double delta = moveDelta(a, nb, b) + moveDelta(b, na, a);
                if (delta >= -EPS
                        || nodeLoad[na] - load[a] + load[b] > room[na] + EPS
                        || nodeLoad[nb] - load[b] + load[a] > room[nb] + EPS) {
                    continue;
                }
                int wa = workerOf[a];
                workerOf[a] = workerOf[b];
                workerOf[b] = wa;
                nodeLoad[na] += load[b] - load[a];
                nodeLoad[nb] += load[a] - load[b];
                improved = true;
            }
        }
        return improved;
    }

    private boolean moveWorkers() {
        boolean improved = false;
        for (int w = 0; w < nodeOfWorker.length; w++) {
            int from = nodeOfWorker[w];
            double workerLoad = 0;
            for (int e = 0; e < workerOf.length; e++) {
                if (workerOf[e] == w) {
                    workerLoad += load[e];
                }
            }
            int bestNode = -1;
            double best = -EPS;
            for (int node = 0; node < ports.length; node++) {
                if (node == from || workersOnNode[node] >= ports[node]
                        || nodeLoad[node] + workerLoad > room[node] + EPS) {
                    continue;
                }
                double delta = 0;
                for (int e = 0; e < workerOf.length; e++) {
                    if (workerOf[e] != w) {
                        continue;
                    }
                    for (Map.Entry<Integer, Double> n : adjacency.get(e).entrySet()) {
                        int x = n.getKey();
                        if (workerOf[x] == w) {
                            continue;
                        }
                        int nx = nodeOf(x);
                        delta += n.getValue() * ((nx != node ? 1 : 0) - (nx != from ? 1 : 0));
                    }
                }
                if (delta < best) {
                    best = delta;
                    bestNode = node;
                }
            }
            if (bestNode >= 0) {
                nodeLoad[from] -= workerLoad;
                nodeLoad[bestNode] += workerLoad;
                workersOnNode[from]--;
                workersOnNode[bestNode]++;
                nodeOfWorker[w] = bestNode;
                improved = true;
            }
        }
        return improved;
    }

    private boolean moveNodeGroups() {
        boolean improved = false;
        for (int from = 0; from < ports.length; from++) {
            if (workersOnNode[from] == 0) {
                continue;
            }
            int bestNode = -1;
            double best = -EPS;
            for (int to = 0; to < ports.length; to++) {
                if (to == from || workersOnNode[to] + workersOnNode[from] > ports[to]
                        || nodeLoad[to] + nodeLoad[from] > room[to] + EPS) {
                    continue;
                }
                double delta = 0;
                for (int e = 0; e < workerOf.length; e++) {
                    if (nodeOf(e) != from) {
                        continue;
                    }
                    for (Map.Entry<Integer, Double> n : adjacency.get(e).entrySet()) {
                        int nx = nodeOf(n.getKey());
                        if (nx != from) {
                            delta += n.getValue() * ((nx != to ? 1 : 0) - 1);
                        }
                    }
                }
                if (delta < best) {
                    best = delta;
                    bestNode = to;
                }
            }
            if (bestNode >= 0) {
                for (int w = 0; w < nodeOfWorker.length; w++) {
                    if (nodeOfWorker[w] == from) {
                        nodeOfWorker[w] = bestNode;
                    }
                }
                nodeLoad[bestNode] += nodeLoad[from];
                nodeLoad[from] = 0;
                workersOnNode[bestNode] += workersOnNode[from];
                workersOnNode[from] = 0;
                improved = true;
            }
        }
        return improved;
    }

    private boolean swapWorkers() {
        boolean improved = false;
        double[] workerLoad = new double[nodeOfWorker.length];
        for (int e = 0; e < workerOf.length; e++) {
            workerLoad[workerOf[e]] += load[e];
        }
        for (int a = 0; a < nodeOfWorker.length; a++) {
            for (int b = a + 1; b < nodeOfWorker.length; b++) {
                int na = nodeOfWorker[a];
                int nb = nodeOfWorker[b];
                if (na == nb
                        || nodeLoad[na] - workerLoad[a] + workerLoad[b] > room[na] + EPS
                        || nodeLoad[nb] - workerLoad[b] + workerLoad[a] > room[nb] + EPS) {
                    continue;
                }
                double before = cutOfWorkers(a, b);
                nodeOfWorker[a] = nb;
                nodeOfWorker[b] = na;
                if (cutOfWorkers(a, b) < before - EPS) {
                    nodeLoad[na] += workerLoad[b] - workerLoad[a];
                    nodeLoad[nb] += workerLoad[a] - workerLoad[b];
                    improved = true;
                } else {
                    nodeOfWorker[a] = na;
                    nodeOfWorker[b] = nb;
                }
            }
        }
        return improved;
    }

    /** Inter-node traffic on links touching workers a or b (each link counted once). */
    private double cutOfWorkers(int a, int b) {
        double cut = 0;
        for (int e = 0; e < workerOf.length; e++) {
            if (workerOf[e] != a && workerOf[e] != b) {
                continue;
            }
            for (Map.Entry<Integer, Double> n : adjacency.get(e).entrySet()) {
                int x = n.getKey();
                boolean xInside = workerOf[x] == a || workerOf[x] == b;
                if (nodeOf(e) != nodeOf(x) && (!xInside || e < x)) {
                    cut += n.getValue();
                }
            }
        }
        return cut;
    }
}
