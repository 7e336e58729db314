package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.Outcome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A placement that meets every constraint of the online formulation, found node first: a bounded
 * depth-first search over executor → node assignments, then a split of each node's executors into
 * workers. Used by {@link AnielloOnlineScheduler} as the repair when its greedy phases find no room, and
 * as a second, node-first start for the refinement.
 *
 * <p>Constraints (as in {@link ExactInterNodeOptimum}): node load within its room; k executors on a node
 * need between ⌈k/M⌉ and min(k, ports) workers there, and these ranges must admit exactly W' workers in
 * all. The search takes the executors in the given order and tries the nodes for each in the order of
 * a {@link NodeChoice} (by default those that add the least inter-node traffic first, so its first leaf
 * is a traffic-aware first fit); it backtracks only when a branch breaks a constraint. The first leaf
 * found is returned.
 *
 * <p>"No room" is a proof, never a guess: {@link #find} says "no room" only when a cheap bound rules
 * the instance out (fewer ports than workers, an executor above every node's room, more executors than
 * ports × M, total load above what the nodes can carry: each at most its room and at most its ports × M
 * heaviest executors) or the search ran to completion without a leaf. When it stops at
 * {@code maxSteps} search nodes first, its failure says the instance was not proven infeasible.
 */
final class FeasibleNodeSearch extends PlacementSearch {

    /** Executor → worker and worker → node, as {@link InterNodeLocalSearch} takes them. */
    record Assignment(int[] workerOf, int[] nodeOfWorker) {
    }

    /** The most load each node can carry: its room, or less when its ports × M heaviest executors weigh less. */
    private final double[] carry;

    /**
     * @param adjacency per executor, neighbour → tuples/s exchanged (both directions summed)
     * @param ports     usable ports per node
     * @param room      node capacity minus background, per node
     */
    FeasibleNodeSearch(double[] load, List<Map<Integer, Double>> adjacency, int perWorkerLimit, int workers,
                       int[] ports, double[] room) {
        super(load, adjacency, perWorkerLimit, workers, ports, room);
        this.carry = new double[ports.length];
        double[] heaviestFirst = load.clone();
        Arrays.sort(heaviestFirst);
        double[] heaviestSum = new double[load.length + 1]; // [k] = the k heaviest loads summed
        for (int k = 0; k < load.length; k++) {
            heaviestSum[k + 1] = heaviestSum[k] + heaviestFirst[load.length - 1 - k];
        }
        for (int n = 0; n < ports.length; n++) {
            // A node holds at most ports × M executors, so it never carries more than the heaviest that many.
            int most = (int) Math.min(load.length, (long) ports[n] * perWorkerLimit);
            carry[n] = ports[n] == 0 ? 0 : Math.max(0, Math.min(room[n], heaviestSum[most]));
        }
    }

    /** Executors by load, heaviest first: the first-fit-decreasing order that packs tight instances. */
    Comparator<Integer> byLoadDescending() {
        return Comparator.comparingDouble((Integer i) -> -load[i]).thenComparingInt(i -> i);
    }

    /** How the search orders the nodes it tries for one executor. */
    enum NodeChoice {
        /** Least added inter-node traffic, then least utilised: a traffic-aware first fit. */
        LEAST_CUT,
        /** Least room left after the executor, then least added traffic: best fit, for tight packing. */
        BEST_FIT,
        /** Most room left after the executor: worst fit, spreads over every node (when all ports are needed). */
        WORST_FIT
    }

    /** Executors by total traffic, heaviest first: the order that keeps heavy pairs together. */
    Comparator<Integer> byTrafficDescending() {
        double[] total = new double[load.length];
        for (int i = 0; i < load.length; i++) {
            total[i] = adjacency.get(i).values().stream().mapToDouble(Double::doubleValue).sum();
        }
        return Comparator.comparingDouble((Integer i) -> -total[i]).thenComparingInt(i -> i);
    }

    /** The first assignment found with executors taken in {@code order}, within {@code maxSteps} search nodes. */
    Outcome<Assignment> find(Comparator<Integer> order, long maxSteps) {
        return find(order, NodeChoice.LEAST_CUT, maxSteps);
    }

    /** As {@link #find(Comparator, long)}, trying nodes in the given order. */
    Outcome<Assignment> find(Comparator<Integer> order, NodeChoice choice, long maxSteps) {
        return findNodes(order, choice, maxSteps).map(this::split);
    }

    /** As {@link #find(Comparator, long)}, the executor → node part only. */
    Outcome<int[]> findNodes(Comparator<Integer> order, long maxSteps) {
        return findNodes(order, NodeChoice.LEAST_CUT, maxSteps);
    }

    private Outcome<int[]> findNodes(Comparator<Integer> order, NodeChoice choice, long maxSteps) {
        String proof = cheapProof();
        if (proof != null) {
            return Outcome.failure("no room: " + proof);
        }
        Search s = new Search(order, choice, maxSteps);
        s.run();
        if (s.found == null) {
            return Outcome.failure(s.aborted
                    ? "no placement found within " + maxSteps + " search steps (not proven infeasible)"
                    : "no room: no placement satisfies the constraints (exhaustive search)");
        }
        return Outcome.success(s.found);
    }

    /** A cheap proof that no placement exists, or null. */
    private String cheapProof() {
        double totalLoad = 0;
        double maxLoad = 0;
        for (double l : load) {
            totalLoad += l;
            maxLoad = Math.max(maxLoad, l);
        }
        double totalCarry = 0;
        for (double c : carry) {
            totalCarry += c;
        }
        double totalRoom = 0;
        double maxRoom = Double.NEGATIVE_INFINITY;
        long executorRoom = 0;
        int totalPorts = 0;
        for (int n = 0; n < ports.length; n++) {
            if (ports[n] > 0) {
                totalRoom += Math.max(0, room[n]);
                maxRoom = Math.max(maxRoom, room[n]);
                executorRoom += (long) ports[n] * perWorkerLimit;
                totalPorts += ports[n];
            }
        }
        if (totalPorts < workers) {
            return workers + " workers but only " + totalPorts + " usable ports";
        }
        if (maxLoad > maxRoom + EPS) {
            return "an executor's load " + maxLoad + " exceeds every node's room (largest "
                    + maxRoom + ")";
        }
        if (totalLoad > totalRoom + EPS) {
            return "total load " + totalLoad + " exceeds the nodes' total room " + totalRoom;
        }
        if (load.length > executorRoom) {
            return load.length + " executors but the usable ports hold at most " + executorRoom
                    + " at " + perWorkerLimit + " per worker";
        }
        if (totalLoad > totalCarry + EPS) {
            return "total load " + totalLoad + " exceeds what the nodes can carry, " + totalCarry
                    + " (each at most its room or its ports x " + perWorkerLimit + " heaviest executors)";
        }
        return null;
    }

    /**
     * Workers for a feasible executor → node assignment: per node the fewest workers its executors need,
     * raised node by node until W' in all; on each node the executors go to its workers by the pairwise
     * greedy (heavy pairs share a worker), at most M each, none empty.
     */
    Assignment split(int[] nodeOf) {
        int nodes = ports.length;
        List<List<Integer>> onNode = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            onNode.add(new ArrayList<>());
        }
        for (int i = 0; i < nodeOf.length; i++) {
            onNode.get(nodeOf[i]).add(i);
        }
        int[] count = new int[nodes];
        int total = 0;
        for (int n = 0; n < nodes; n++) {
            count[n] = ExecutorsPerSlotLimit.ceilDiv(onNode.get(n).size(), perWorkerLimit);
            total += count[n];
        }
        for (int n = 0; n < nodes && total < workers; n++) {
            int extra = Math.min(workers - total, Math.min(onNode.get(n).size(), ports[n]) - count[n]);
            count[n] += extra;
            total += extra;
        }
        int[] workerOf = new int[nodeOf.length];
        int[] nodeOfWorker = new int[workers];
        int next = 0;
        for (int n = 0; n < nodes; n++) {
            List<Integer> members = onNode.get(n);
            int[] local = workersOnNode(members, count[n]);
            for (int k = 0; k < members.size(); k++) {
                workerOf[members.get(k)] = next + local[k];
            }
            for (int w = 0; w < count[n]; w++) {
                nodeOfWorker[next + w] = n;
            }
            next += count[n];
        }
        return new Assignment(workerOf, nodeOfWorker);
    }

    /** Worker (0..count-1) of each member of one node. */
    private int[] workersOnNode(List<Integer> members, int count) {
        if (count == 0) {
            return new int[0];
        }
        Map<Integer, Integer> localOf = new java.util.HashMap<>();
        for (int k = 0; k < members.size(); k++) {
            localOf.put(members.get(k), k);
        }
        List<PairwiseGreedyPacker.Pair> pairs = new ArrayList<>();
        for (int k = 0; k < members.size(); k++) {
            for (Map.Entry<Integer, Double> nb : adjacency.get(members.get(k)).entrySet()) {
                Integer j = localOf.get(nb.getKey());
                if (j != null && k < j) {
                    pairs.add(new PairwiseGreedyPacker.Pair(k, j, nb.getValue()));
                }
            }
        }
        int[] countLimit = new int[count];
        double[] unlimited = new double[count];
        Arrays.fill(countLimit, perWorkerLimit);
        Arrays.fill(unlimited, Double.POSITIVE_INFINITY);
        double[] memberLoad = new double[members.size()];
        for (int k = 0; k < memberLoad.length; k++) {
            memberLoad[k] = load[members.get(k)];
        }
        PairwiseGreedyPacker packer = new PairwiseGreedyPacker(memberLoad, pairs,
                new PairwiseGreedyPacker.Bins(countLimit, unlimited, new double[count], unlimited),
                k -> "executor " + members.get(k));
        Outcome<int[]> packed = packer.pack(pairs).flatMap(ignored -> packer.fillEmptyBins());
        if (packed.isSuccess()) {
            return packed.orElseThrow();
        }
        // Cannot happen (count workers of M hold the members, and count <= members), but stay total:
        // deal round-robin, which meets both limits since count >= ceil(members / M).
        int[] dealt = new int[members.size()];
        for (int k = 0; k < dealt.length; k++) {
            dealt[k] = k % count;
        }
        return dealt;
    }

    private final class Search {
        final int[] order;
        final NodeChoice choice;
        final long maxSteps;
        final int[] next;
        final int[] nodeOf;
        final int[] count;
        final double[] used;
        double freeRoom; // Σ carry − used over usable nodes: the remaining load must fit in it
        double remainingLoad;
        int freeExecutorRoom; // Σ (ports_n × M − k_n): the remaining executors must fit in it
        int maxWorkersPossible; // Σ min(k_n, ports_n)
        int minWorkersNeeded; // Σ ⌈k_n / M⌉
        long steps;
        boolean aborted;
        int[] found;

        Search(Comparator<Integer> comparator, NodeChoice choice, long maxSteps) {
            this.choice = choice;
            Integer[] boxed = new Integer[load.length];
            for (int i = 0; i < boxed.length; i++) {
                boxed[i] = i;
            }
            Arrays.sort(boxed, comparator);
            this.order = Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
            this.maxSteps = maxSteps;
            this.nodeOf = new int[load.length];
            this.next = new int[load.length];
            Arrays.fill(nodeOf, -1);
            this.count = new int[ports.length];
            this.used = new double[ports.length];
            for (int n = 0; n < ports.length; n++) {
                if (ports[n] > 0) {
                    freeRoom += carry[n];
                    freeExecutorRoom += ports[n] * perWorkerLimit;
                }
            }
            for (double l : load) {
                remainingLoad += l;
            }
        }

        double addedCut(int e, int n) {
            double c = 0;
            for (Map.Entry<Integer, Double> nb : adjacency.get(e).entrySet()) {
                int other = nodeOf[nb.getKey()];
                if (other >= 0 && other != n) {
                    c += nb.getValue();
                }
            }
            return c;
        }

        /**
         * Depth-first search without recursion (a topology may have thousands of executors): depth k
         * places executor order[k]; {@code next[k]} is how far through k's node order the search has got.
         * Returning to a depth recomputes its node order, which the restored state makes identical.
         */
        void run() {
            int k = 0;
            boolean entering = true;
            while (true) {
                if (entering) {
                    if (++steps > maxSteps) {
                        aborted = true;
                        return;
                    }
                    boolean leaf = k == order.length;
                    if (leaf && minWorkersNeeded <= workers && workers <= maxWorkersPossible) {
                        found = nodeOf.clone();
                        return;
                    }
                    if (leaf || remainingLoad > freeRoom + EPS || order.length - k > freeExecutorRoom) {
                        if (--k < 0) {
                            return;
                        }
                        undo(k);
                        entering = false;
                        continue;
                    }
                    next[k] = 0;
                }
                if (advance(k)) {
                    k++;
                    entering = true;
                } else {
                    if (--k < 0) {
                        return;
                    }
                    undo(k);
                    entering = false;
                }
            }
        }

        /** Places executor order[k] on the next node of its order that keeps every constraint; false if none. */
        private boolean advance(int k) {
            int e = order[k];
            Integer[] candidates = new Integer[ports.length];
            double[] cut = new double[ports.length];
            for (int n = 0; n < ports.length; n++) {
                candidates[n] = n;
                cut[n] = addedCut(e, n);
            }
            Arrays.sort(candidates, switch (choice) {
                case LEAST_CUT -> Comparator.comparingDouble((Integer n) -> cut[n])
                        .thenComparingDouble(n -> room[n] > 0 ? used[n] / room[n] : Double.POSITIVE_INFINITY)
                        .thenComparingInt(n -> n);
                case BEST_FIT -> Comparator.comparingDouble((Integer n) -> room[n] - used[n] - load[e])
                        .thenComparingDouble(n -> cut[n]).thenComparingInt(n -> n);
                case WORST_FIT -> Comparator.comparingDouble((Integer n) -> -(room[n] - used[n] - load[e]))
                        .thenComparingDouble(n -> cut[n]).thenComparingInt(n -> n);
            });
            // Empty nodes with the same ports and room are interchangeable: only the first is tried.
            Set<List<Double>> emptySeen = new HashSet<>();
            for (int i = 0; i < candidates.length; i++) {
                int n = candidates[i];
                boolean twin = count[n] == 0 && !emptySeen.add(List.of((double) ports[n], room[n]));
                if (i < next[k] || twin) {
                    continue;
                }
                next[k] = i + 1;
                if (ports[n] == 0 || used[n] + load[e] > room[n] + EPS) {
                    continue;
                }
                int before = count[n];
                int after = before + 1;
                int needDelta = ExecutorsPerSlotLimit.ceilDiv(after, perWorkerLimit)
                        - ExecutorsPerSlotLimit.ceilDiv(before, perWorkerLimit);
                int possibleDelta = Math.min(after, ports[n]) - Math.min(before, ports[n]);
                if (ExecutorsPerSlotLimit.ceilDiv(after, perWorkerLimit) > ports[n]
                        || minWorkersNeeded + needDelta > workers
                        || maxWorkersPossible + possibleDelta + (order.length - k - 1) < workers) {
                    continue;
                }
                nodeOf[e] = n;
                count[n] = after;
                used[n] += load[e];
                freeRoom -= load[e];
                freeExecutorRoom--;
                remainingLoad -= load[e];
                minWorkersNeeded += needDelta;
                maxWorkersPossible += possibleDelta;
                return true;
            }
            next[k] = candidates.length;
            return false;
        }

        /** Takes executor order[k] off its node again. */
        private void undo(int k) {
            int e = order[k];
            int n = nodeOf[e];
            int after = count[n];
            int before = after - 1;
            minWorkersNeeded -= ExecutorsPerSlotLimit.ceilDiv(after, perWorkerLimit)
                    - ExecutorsPerSlotLimit.ceilDiv(before, perWorkerLimit);
            maxWorkersPossible -= Math.min(after, ports[n]) - Math.min(before, ports[n]);
            remainingLoad += load[e];
            freeExecutorRoom++;
            freeRoom += load[e];
            used[n] -= load[e];
            count[n] = before;
            nodeOf[e] = -1;
        }
    }
}
