package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The Elastic Allocator's Greedy Matching Algorithm (GMA, SOSE'14 Alg. 1), placing a topology's
 * executors ("operators") on nodes under CPU and bandwidth limits.
 *
 * <p>Node state: CPU utilisation = (background + executor CPU) / capacity; bandwidth utilisation =
 * (background + tuples/s this topology sends or receives across the node's boundary) / capacity. A node's
 * class ({@link ElasticLoadClass}) comes from the larger of the two.
 *
 * <p>Our reading of the algorithm, where the seed is garbled or silent:
 * <ul>
 *   <li>Phase 1 (clustering) is redone before each operator, as the listing has it.</li>
 *   <li>Phase 2 tries, for each unplaced operator, every feasible light or moderate node (heavy nodes are
 *       not offered new work); feasible = after placement every touched node stays within
 *       {@code D_CPU} and {@code D_BW}. "Keep the placement if the objective improves" is read as a
 *       best-so-far search: the operator goes to the feasible node with the best objective.</li>
 *   <li>The objective is R_dev, the root of the summed squared deviations of node utilisation from the
 *       mean, CPU and bandwidth added. R_utl is not usable as a placement objective: total CPU use is the
 *       same wherever an operator goes.</li>
 *   <li>The loop runs while the time budget {@code t_max} lasts (injected clock) and a pass still places
 *       something. Operators left over are spread round-robin over the light nodes (least utilised
 *       first) without checking the limits, "best effort" as the paper says; with no light node, over the
 *       moderate ones, then over any.</li>
 *   <li>Storm needs slots: the topology gets one worker per node it uses, so it may use at most
 *       W nodes (its worker count), each with a usable port.</li>
 * </ul>
 */
public final class ElasticAllocator {

    private static final double EPS = 1e-9;

    /**
     * @param cpuLimit        D_CPU, utilisation fraction a node may reach (e.g. 0.9)
     * @param bandwidthLimit  D_BW, utilisation fraction
     * @param timeBudgetNanos t_max
     */
    public record Params(double cpuLimit, double bandwidthLimit, long timeBudgetNanos) {
        public Params {
            if (cpuLimit <= 0 || bandwidthLimit <= 0 || timeBudgetNanos < 0) {
                throw new IllegalArgumentException("limits must be > 0 and the time budget >= 0");
            }
        }
    }

    /** The placement and which executors were spread best-effort after the budget or the limits ran out. */
    public record Result(Placement placement, List<ExecutorId> spreadBestEffort) {
        public Result {
            spreadBestEffort = List.copyOf(spreadBestEffort);
        }
    }

    private final Params params;
    private final LongSupplier nanoClock;

    public ElasticAllocator(Params params, LongSupplier nanoClock) {
        this.params = params;
        this.nanoClock = nanoClock;
    }

    public Outcome<Result> place(TopologyModel topology, ClusterModel cluster, ExecutorLoads cpu,
                                 TrafficMatrix traffic, Placement current) {
        long start = nanoClock.getAsLong();
        State s = new State(topology, cluster, cpu, traffic);
        if (s.allowedNodes().isEmpty() && !topology.executors().isEmpty()) {
            return Outcome.failure("no node has a usable slot for topology " + topology.id());
        }
        List<ExecutorId> order = new ArrayList<>();
        for (String c : topology.graph().topologicalOrder()) {
            order.addAll(topology.executorsOf(c));
        }
        boolean progress = true;
        outer:
        while (progress) {
            progress = false;
            for (ExecutorId e : order) {
                if (nanoClock.getAsLong() - start > params.timeBudgetNanos()) {
                    break outer;
                }
                if (s.nodeOf.containsKey(e)) {
                    continue;
                }
                int best = -1;
                double bestObjective = Double.POSITIVE_INFINITY;
                for (int n : s.candidates()) {
                    if (!s.feasible(e, n)) {
                        continue;
                    }
                    double objective = s.objectiveIfPlaced(e, n);
                    if (objective < bestObjective - EPS) {
                        bestObjective = objective;
                        best = n;
                    }
                }
                if (best >= 0) {
                    s.place(e, best);
                    progress = true;
                }
            }
        }
        List<ExecutorId> leftovers = order.stream().filter(e -> !s.nodeOf.containsKey(e)).toList();
        for (ExecutorId e : leftovers) {
            int n = s.spreadTarget();
            if (n < 0) {
                return Outcome.failure("no node left for executor " + e + " of topology " + topology.id());
            }
            s.place(e, n);
        }
        return Outcome.success(new Result(s.toPlacement(current), leftovers));
    }

    /** Mutable per-call state: node loads and the partial assignment. */
    private final class State {
        final TopologyModel topology;
        final ClusterModel cluster;
        final List<Node> nodes;
        final ExecutorLoads cpuLoad;
        final TrafficMatrix traffic;
        final double[] cpu;
        double[] bandwidth;
        final int[] executorsOn;
        final Map<ExecutorId, Integer> nodeOf = new HashMap<>();
        final boolean[] hasSlot;
        int spreadCursor;

        State(TopologyModel topology, ClusterModel cluster, ExecutorLoads cpuLoad, TrafficMatrix traffic) {
            this.topology = topology;
            this.cluster = cluster;
            this.nodes = cluster.nodes();
            this.cpuLoad = cpuLoad;
            this.traffic = traffic;
            cpu = new double[nodes.size()];
            bandwidth = new double[nodes.size()];
            executorsOn = new int[nodes.size()];
            hasSlot = new boolean[nodes.size()];
            for (int n = 0; n < nodes.size(); n++) {
                cpu[n] = nodes.get(n).cpuBackground();
                bandwidth[n] = nodes.get(n).bandwidthBackground();
                hasSlot[n] = !cluster.usableSlotsOn(nodes.get(n).id(), topology.id()).isEmpty();
            }
        }

        int usedNodes() {
            int used = 0;
            for (int c : executorsOn) {
                if (c > 0) {
                    used++;
                }
            }
            return used;
        }

        /** Nodes this topology may still use: it has a slot there, and opening it keeps ≤ W workers. */
        List<Integer> allowedNodes() {
            boolean mayOpen = usedNodes() < topology.numWorkers();
            List<Integer> allowed = new ArrayList<>();
            for (int n = 0; n < nodes.size(); n++) {
                if (hasSlot[n] && (executorsOn[n] > 0 || mayOpen)) {
                    allowed.add(n);
                }
            }
            return allowed;
        }

        ElasticLoadClass classOf(int n) {
            return ElasticLoadClass.of(Math.max(util(cpu[n], nodes.get(n).cpuCapacity()),
                    util(bandwidth[n], nodes.get(n).bandwidthCapacity())));
        }

        /** Allowed light nodes, then allowed moderate nodes; heavy nodes get nothing new. */
        List<Integer> candidates() {
            List<Integer> result = new ArrayList<>();
            for (ElasticLoadClass wanted : new ElasticLoadClass[] {ElasticLoadClass.LIGHT, ElasticLoadClass.MODERATE}) {
                for (int n : allowedNodes()) {
                    if (classOf(n) == wanted) {
                        result.add(n);
                    }
                }
            }
            return result;
        }

        boolean feasible(ExecutorId e, int n) {
            double[] bw = bandwidthIfPlaced(e, n);
            if (util(cpu[n] + cpuLoad.of(e), nodes.get(n).cpuCapacity()) > params.cpuLimit() + EPS) {
                return false;
            }
            for (int k = 0; k < nodes.size(); k++) {
                boolean touched = bw[k] > bandwidth[k];
                if (touched && util(bw[k], nodes.get(k).bandwidthCapacity()) > params.bandwidthLimit() + EPS) {
                    return false;
                }
            }
            return true;
        }

        double objectiveIfPlaced(ExecutorId e, int n) {
            double[] c = cpu.clone();
            c[n] += cpuLoad.of(e);
            double[] bw = bandwidthIfPlaced(e, n);
            return deviation(c, true) + deviation(bw, false);
        }

        /** Node bandwidth after placing e on n: traffic to placed executors on other nodes crosses both ends. */
        double[] bandwidthIfPlaced(ExecutorId e, int n) {
            double[] bw = bandwidth.clone();
            for (Map.Entry<ExecutorId, Double> nb : traffic.neighbours(e).entrySet()) {
                Integer other = nodeOf.get(nb.getKey());
                if (other != null && other != n) {
                    bw[n] += nb.getValue();
                    bw[other] += nb.getValue();
                }
            }
            return bw;
        }

        double deviation(double[] used, boolean isCpu) {
            double[] u = new double[nodes.size()];
            double mean = 0;
            for (int k = 0; k < u.length; k++) {
                Node node = nodes.get(k);
                u[k] = util(used[k], isCpu ? node.cpuCapacity() : node.bandwidthCapacity());
                mean += u[k];
            }
            mean /= u.length;
            double sum = 0;
            for (double x : u) {
                sum += (x - mean) * (x - mean);
            }
            return Math.sqrt(sum);
        }

        void place(ExecutorId e, int n) {
            bandwidth = bandwidthIfPlaced(e, n);
            cpu[n] += cpuLoad.of(e);
            executorsOn[n]++;
            nodeOf.put(e, n);
        }

        /** Round-robin over light nodes, least utilised first; falls back to moderate, then any allowed node. */
        int spreadTarget() {
            List<Integer> allowed = allowedNodes();
            for (ElasticLoadClass wanted : ElasticLoadClass.values()) {
                List<Integer> pool = new ArrayList<>();
                for (int n : allowed) {
                    if (classOf(n) == wanted) {
                        pool.add(n);
                    }
                }
                if (!pool.isEmpty()) {
                    pool.sort(Comparator.comparingDouble((Integer n) -> util(cpu[n], nodes.get(n).cpuCapacity()))
                            .thenComparingInt(n -> n));
                    return pool.get(spreadCursor++ % pool.size());
                }
            }
            return -1;
        }

        Placement toPlacement(Placement current) {
            List<List<ExecutorId>> members = new ArrayList<>();
            int[] nodeOfWorker = new int[nodes.size()];
            for (int n = 0; n < nodes.size(); n++) {
                members.add(new ArrayList<>());
                nodeOfWorker[n] = n;
            }
            for (Map.Entry<ExecutorId, Integer> e : nodeOf.entrySet()) {
                members.get(e.getValue()).add(e.getKey());
            }
            SlotId[] slots = PortChoice.choose(topology.id(), cluster, current, members, nodeOfWorker);
            Map<ExecutorId, SlotId> slotOf = new HashMap<>();
            for (Map.Entry<ExecutorId, Integer> e : nodeOf.entrySet()) {
                slotOf.put(e.getKey(), slots[e.getValue()]);
            }
            return Placement.of(slotOf);
        }
    }

    private static double util(double used, double capacity) {
        return Double.isInfinite(capacity) ? 0 : capacity <= 0 ? (used > 0 ? Double.POSITIVE_INFINITY : 0) : used / capacity;
    }
}
