package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The least inter-node traffic any placement of one topology can reach under the constraints the
 * Aniello online scheduler honours, by branch and bound over executor → node assignments. For
 * benchmarks on small instances (about a dozen executors), not for Nimbus.
 *
 * <p>Constraints: node CPU (background + executor loads ≤ capacity); exactly {@code W' = min(W, E)}
 * non-empty workers, each with at most M(α) executors, none on a node beyond its usable ports. For k
 * executors on a node that means it holds between ⌈k/M⌉ and min(k, ports) workers, and the counts over
 * the nodes must be able to sum to W'. Inter-node traffic depends only on the node of each executor, so
 * the search never has to split executors into workers explicitly.
 *
 * <p>Pruning: cost so far plus, for each unassigned executor, the cheapest way to attach it to the
 * executors already placed (a valid lower bound); nodes that are still empty and identical (capacity,
 * background, usable ports) are interchangeable, so only the first is tried.
 */
public final class ExactInterNodeOptimum {

    private static final double EPS = 1e-9;

    /** The optimum value, one optimal executor → node assignment, and how many search nodes it took. */
    public record Result(double interNodeTraffic, Map<ExecutorId, String> nodeOf, long searchNodes) {
        public Result {
            nodeOf = Map.copyOf(nodeOf);
        }
    }

    private final double alpha;
    private final long maxSearchNodes;

    public ExactInterNodeOptimum(double alpha, long maxSearchNodes) {
        ExecutorsPerSlotLimit.requireUnit("alpha", alpha);
        this.alpha = alpha;
        this.maxSearchNodes = maxSearchNodes;
    }

    public Outcome<Result> solve(TopologyModel topology, ClusterModel cluster, TrafficMatrix traffic, ExecutorLoads loads) {
        List<ExecutorId> executors = new ArrayList<>(topology.executorIds());
        if (executors.isEmpty()) {
            return Outcome.success(new Result(0, Map.of(), 0));
        }
        executors.sort(Comparator.comparingDouble((ExecutorId e) -> -traffic.totalOf(e)).thenComparing(e -> e));
        Search s = new Search(topology, cluster, traffic, loads, executors);
        s.dfs(0, 0);
        if (s.aborted) {
            return Outcome.failure("search limit of " + maxSearchNodes + " nodes reached");
        }
        if (s.bestAssign == null) {
            return Outcome.failure("no placement of topology " + topology.id() + " satisfies the constraints");
        }
        Map<ExecutorId, String> nodeOf = new HashMap<>();
        for (int i = 0; i < executors.size(); i++) {
            nodeOf.put(executors.get(i), s.nodes.get(s.bestAssign[i]).id());
        }
        return Outcome.success(new Result(s.best, nodeOf, s.visited));
    }

    private final class Search {
        final List<Node> nodes = new ArrayList<>();
        final int[] ports;
        final double[] room;
        final int executorCount;
        final int workers;
        final int limit;
        final double[] load;
        final int[][] neighbour;
        final double[][] weight;
        final int[] assign;
        final int[] count;
        final double[] used;
        int maxWorkersPossible; // Σ min(k_n, ports_n): most workers the current counts allow
        int minWorkersNeeded; // Σ ⌈k_n / M⌉: fewest workers the current counts need
        double best = Double.POSITIVE_INFINITY;
        int[] bestAssign;
        long visited;
        boolean aborted;

        Search(TopologyModel topology, ClusterModel cluster, TrafficMatrix traffic, ExecutorLoads loads,
               List<ExecutorId> executors) {
            for (Node n : cluster.nodes()) {
                if (!cluster.usableSlotsOn(n.id(), topology.id()).isEmpty()) {
                    nodes.add(n);
                }
            }
            ports = new int[nodes.size()];
            room = new double[nodes.size()];
            for (int n = 0; n < nodes.size(); n++) {
                ports[n] = cluster.usableSlotsOn(nodes.get(n).id(), topology.id()).size();
                room[n] = nodes.get(n).cpuCapacity() - nodes.get(n).cpuBackground();
            }
            executorCount = executors.size();
            workers = topology.effectiveWorkers();
            limit = ExecutorsPerSlotLimit.of(alpha, executorCount, workers);
            Map<ExecutorId, Integer> index = new HashMap<>();
            for (int i = 0; i < executorCount; i++) {
                index.put(executors.get(i), i);
            }
            load = new double[executorCount];
            neighbour = new int[executorCount][];
            weight = new double[executorCount][];
            for (int i = 0; i < executorCount; i++) {
                load[i] = loads.of(executors.get(i));
                List<Integer> ids = new ArrayList<>();
                List<Double> ws = new ArrayList<>();
                for (Map.Entry<ExecutorId, Double> nb : traffic.neighbours(executors.get(i)).entrySet()) {
                    Integer j = index.get(nb.getKey());
                    if (j != null) {
                        ids.add(j);
                        ws.add(nb.getValue());
                    }
                }
                neighbour[i] = ids.stream().mapToInt(Integer::intValue).toArray();
                weight[i] = ws.stream().mapToDouble(Double::doubleValue).toArray();
            }
            assign = new int[executorCount];
            Arrays.fill(assign, -1);
            count = new int[nodes.size()];
            used = new double[nodes.size()];
        }

        /** Cut traffic if executor i joined node n, against the executors placed so far. */
        double addedCost(int i, int n) {
            double c = 0;
            for (int k = 0; k < neighbour[i].length; k++) {
                int j = neighbour[i][k];
                if (assign[j] >= 0 && assign[j] != n) {
                    c += weight[i][k];
                }
            }
            return c;
        }

        double lowerBound(int from) {
            double bound = 0;
            for (int k = from; k < executorCount; k++) {
                double cheapest = Double.POSITIVE_INFINITY;
                for (int n = 0; n < nodes.size(); n++) {
                    cheapest = Math.min(cheapest, addedCost(k, n));
                }
                bound += cheapest;
            }
            return bound;
        }

        void dfs(int k, double cost) {
            if (aborted) {
                return;
            }
            if (++visited > maxSearchNodes) {
                aborted = true;
                return;
            }
            if (cost + lowerBound(k) >= best - EPS) {
                return;
            }
            if (k == executorCount) {
                if (minWorkersNeeded <= workers && workers <= maxWorkersPossible) {
                    best = cost;
                    bestAssign = assign.clone();
                }
                return;
            }
            Integer[] order = new Integer[nodes.size()];
            double[] added = new double[nodes.size()];
            for (int n = 0; n < nodes.size(); n++) {
                order[n] = n;
                added[n] = addedCost(k, n);
            }
            Arrays.sort(order, Comparator.comparingDouble((Integer n) -> added[n]).thenComparingInt(n -> n));
            List<Integer> triedEmpty = new ArrayList<>();
            for (int n : order) {
                if (count[n] == 0) {
                    boolean twin = false;
                    for (int t : triedEmpty) {
                        twin |= ports[t] == ports[n] && room[t] == room[n]
                                && nodes.get(t).cpuCapacity() == nodes.get(n).cpuCapacity();
                    }
                    if (twin) {
                        continue;
                    }
                }
                if (used[n] + load[k] > room[n] + EPS) {
                    continue;
                }
                int before = count[n];
                int after = before + 1;
                int needBefore = ceilDiv(before, limit);
                int needAfter = ceilDiv(after, limit);
                if (needAfter > ports[n] || minWorkersNeeded - needBefore + needAfter > workers) {
                    continue;
                }
                int minBefore = Math.min(before, ports[n]);
                int minAfter = Math.min(after, ports[n]);
                if (maxWorkersPossible - minBefore + minAfter + (executorCount - k - 1) < workers) {
                    continue;
                }
                if (before == 0) {
                    triedEmpty.add(n);
                }
                assign[k] = n;
                count[n] = after;
                used[n] += load[k];
                minWorkersNeeded += needAfter - needBefore;
                maxWorkersPossible += minAfter - minBefore;
                dfs(k + 1, cost + added[n]);
                maxWorkersPossible -= minAfter - minBefore;
                minWorkersNeeded -= needAfter - needBefore;
                used[n] -= load[k];
                count[n] = before;
                assign[k] = -1;
            }
        }
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
