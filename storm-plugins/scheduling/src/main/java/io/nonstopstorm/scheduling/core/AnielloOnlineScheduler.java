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
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Aniello, Baldoni, Querzoni (DEBS'13) §3.2, the online (traffic-based) scheduler: computes a
 * candidate placement from measured executor-pair traffic and executor CPU load. Whether to apply it
 * is decided separately by {@link AnielloRescheduleRule}.
 *
 * <p>The constraints are the paper's (§3.2.2): the topology uses exactly {@code W' = min(W, E)}
 * workers; a node hosts at most its usable ports; the executors on node k load it by at most its
 * capacity {@code B_k} (minus the node's background load from other work). We also keep α's limit
 * {@link ExecutorsPerSlotLimit M(α)} per worker, since the paper says it tunes both schedulers. The
 * objective is inter-node traffic ({@link InterNodeTraffic}).
 *
 * <p><b>Completing the truncated text.</b> The seed stops at "in the first phase, the executors of each
 * topology are partitioned among the number of workers the topology has been [configured with]". Our
 * reading, cross-checked against the authors' public code (not copied), is two greedy passes of the same
 * shape ({@link PairwiseGreedyPacker}):
 * <ol>
 *   <li><b>Executors → workers.</b> Executor pairs by traffic, heaviest first: two unplaced executors go
 *       together into the least-loaded worker that takes both (else each into the least-loaded one that
 *       takes it); when one or both are placed, every combination of their current workers and the
 *       least-loaded worker is tried and the one with the least inter-worker traffic kept. A worker
 *       "takes" an executor if it stays within M(α) executors and its CPU load stays within the largest
 *       remaining node capacity (otherwise no node could host it). Executors without traffic go to the
 *       least-loaded worker. Then every empty worker receives the executor whose move from a shared
 *       worker cuts the least traffic, so exactly W' workers are used.</li>
 *   <li><b>Workers → nodes.</b> The same greedy over worker pairs by inter-worker traffic; a node takes a
 *       worker if it has a usable port left and its load stays within B_k; "least loaded" is the lowest
 *       utilisation (background + load)/B_k.</li>
 * </ol>
 * The authors' extra step that spreads a topology over more nodes is not in the paper and is omitted:
 * it raises inter-node traffic, the quantity the paper minimises.
 *
 * <p><b>Repair (ours).</b> When the greedy phases find no room, a bounded node-first search
 * ({@link FeasibleNodeSearch}) looks for a placement meeting every constraint: four executor/node orders,
 * at most {@link #REPAIR_STEPS} search nodes each (fewer on clusters of more than 50 nodes). "No room"
 * comes back only with a proof (fewer ports than workers, an executor above every node's room, more
 * executors than ports × M, total load above what the nodes can carry, or the first search exhausted)
 * or, saying "not proven", when every search hit its bound. Before the repair the greedy's "no room"
 * made Nimbus fall back to Storm's default placement on feasible instances.
 *
 * <p><b>Optional refinement (ours).</b> With {@code refine = true} the candidate is the lowest inter-node
 * traffic of several local searches under the same constraints: {@link InterNodeLocalSearch} on the
 * greedy's workers, and {@link NodeLevelLocalSearch} from the greedy's nodes, two node-first starts and
 * seeded random-order restarts (at most 24, fewer on large topologies).
 *
 * <p><b>Measured quality</b> (AnielloOnlineQualityTest; ratio to {@link ExactInterNodeOptimum} per
 * instance, every instance counted; seeds 1–100 of three random-instance sizes, 3–24 executors on 2–4
 * nodes): at α = 0, n = 285 feasible, paper greedy mean 1.219, median 1.000, max 10.81; refined mean
 * 1.001, median 1.000, max 1.274. At α = 1, n = 290: paper greedy mean 1.172, median 1.000, max 10.52;
 * refined mean 1.000, median 1.000, max 1.045. Both place all of them. The paper greedy's tail comes from
 * phase 1 filling one worker nearly to a node's room (phase 2 then gives every other worker its own node).
 *
 * <p>Concrete ports: the workers placed on a node first take the topology's current slots there that
 * already hold most of their executors, then the node's lowest usable ports. So re-running on its own
 * output yields the same placement and moves nothing.
 *
 * <p>The whole computation is pure and deterministic: it ignores the current placement except for the
 * port choice.
 */
public final class AnielloOnlineScheduler {

    private static final int REFINEMENT_SWEEPS = 50;
    /** Search nodes each repair order may visit on small clusters; beyond it the repair gives up without a proof. */
    static final long REPAIR_STEPS = 200_000;
    /** Search nodes × cluster nodes per repair order (each search node weighs every cluster node), so a
     *  large cluster gets fewer steps, though always twice the executors (room for one descent). */
    private static final long REPAIR_WORK = 10_000_000;
    /** Search nodes for each of the refinement's node-first starts: a start, not a proof, so kept short. */
    private static final long SECOND_START_STEPS = 20_000;
    private static final int MAX_RESTARTS = 24;
    /** Executors × restarts the refinement may spend on random restarts (24 up to 83 executors, 2 from 1000). */
    private static final int RESTART_BUDGET = 2_000;
    /** The random restarts' seed, fixed so that the scheduler stays deterministic (and idempotent). */
    static final long DEFAULT_RESTART_SEED = 1;

    private final long restartSeed;

    private final double alpha;
    private final boolean refine;

    /** The paper's two greedy phases only. */
    public AnielloOnlineScheduler(double alpha) {
        this(alpha, false);
    }

    /**
     * @param refine also run {@link InterNodeLocalSearch} after the two phases (our addition, off in the
     *               paper's algorithm): single-executor moves, swaps and worker moves that strictly cut
     *               inter-node traffic under the same constraints
     */
    public AnielloOnlineScheduler(double alpha, boolean refine) {
        this(alpha, refine, DEFAULT_RESTART_SEED);
    }

    /** @param restartSeed seeds the refinement's random restarts */
    AnielloOnlineScheduler(double alpha, boolean refine, long restartSeed) {
        ExecutorsPerSlotLimit.requireUnit("alpha", alpha);
        this.alpha = alpha;
        this.refine = refine;
        this.restartSeed = restartSeed;
    }

    /**
     * @param current the topology's placement now (may be empty); only used to keep workers on their ports
     */
    public Outcome<Placement> schedule(TopologyModel topology, ClusterModel cluster, TrafficMatrix traffic,
                                       ExecutorLoads loads, Placement current) {
        List<ExecutorId> executors = topology.executorIds();
        if (executors.isEmpty()) {
            return Outcome.success(Placement.empty());
        }
        int workers = topology.effectiveWorkers();
        if (cluster.usableSlots(topology.id()).size() < workers) {
            return Outcome.failure("topology " + topology.id() + " needs " + workers + " slots but only "
                    + cluster.usableSlots(topology.id()).size() + " are free or its own");
        }
        Instance instance = Instance.of(topology, cluster, traffic, loads, executors,
                ExecutorsPerSlotLimit.of(alpha, executors.size(), workers), workers);
        Outcome<FeasibleNodeSearch.Assignment> greedy = executorsToWorkers(topology, cluster, traffic, loads, executors,
                workers).flatMap(w -> workersToNodes(topology, cluster, traffic, loads, executors, w, workers));
        Outcome<FeasibleNodeSearch.Assignment> placed = greedy.isSuccess() ? greedy : repair(instance, greedy);
        return placed.map(assignment -> {
            FeasibleNodeSearch.Assignment best = refine ? refineFromSeveralStarts(instance, assignment) : assignment;
            return toPlacement(topology, cluster, current, executors, best.workerOf(), best.nodeOfWorker(), workers);
        });
    }

    /**
     * The greedy phases found no room: search node first for a placement that meets every constraint,
     * heavy traffic first into the node it cuts least (keeps heavy pairs together), then heaviest load
     * first into the node it cuts least, fills most (best-fit decreasing) or leaves emptiest (worst fit,
     * for when every port is needed). Fails only when the instance is proven infeasible (a cheap bound, or
     * the first search exhausted) or all four searches hit their bound: {@link #REPAIR_STEPS} search nodes
     * each, fewer on clusters of more than 50 nodes ({@link #REPAIR_WORK}).
     */
    private static Outcome<FeasibleNodeSearch.Assignment> repair(Instance instance,
                                                                 Outcome<FeasibleNodeSearch.Assignment> greedy) {
        FeasibleNodeSearch search = instance.search();
        long steps = Math.max(2L * instance.load().length,
                Math.min(REPAIR_STEPS, REPAIR_WORK / Math.max(1, instance.ports().length)));
        Outcome<FeasibleNodeSearch.Assignment> byTraffic = search.find(search.byTrafficDescending(), steps);
        if (byTraffic.isSuccess()) {
            return byTraffic;
        }
        if (!byTraffic.reasonOrNull().contains("not proven")) {
            return Outcome.failure(byTraffic.reasonOrNull() + " (greedy phases: " + greedy.reasonOrNull() + ")");
        }
        Outcome<FeasibleNodeSearch.Assignment> last = byTraffic;
        for (FeasibleNodeSearch.NodeChoice choice : FeasibleNodeSearch.NodeChoice.values()) {
            last = search.find(search.byLoadDescending(), choice, steps);
            if (last.isSuccess()) {
                return last;
            }
        }
        return Outcome.failure(last.reasonOrNull() + " (greedy phases: " + greedy.reasonOrNull() + ")");
    }

    /**
     * The lowest inter-node traffic of several local searches: worker level from the greedy's placement;
     * node level ({@link NodeLevelLocalSearch}) from the greedy's nodes, from two node-first starts (heavy
     * traffic first, heavy load first) and from {@link #restarts} node-first starts in seeded random
     * orders. Ties keep the earlier (the greedy's). The node-level searches are there because phase 1 can
     * fill one worker nearly to a node's room; phase 2 must then give every other worker a node of its
     * own, and no worker-level move or swap undoes that. The random starts escape the local optima of
     * tight instances (capacity binding), where single moves and swaps stall.
     */
    private FeasibleNodeSearch.Assignment refineFromSeveralStarts(Instance instance,
                                                                  FeasibleNodeSearch.Assignment greedy) {
        FeasibleNodeSearch search = instance.search();
        int executors = greedy.workerOf().length;
        List<Comparator<Integer>> orders = new ArrayList<>(List.of(search.byTrafficDescending(),
                search.byLoadDescending()));
        Random random = new Random(restartSeed);
        for (int r = 0; r < restarts(executors); r++) {
            int[] rank = new int[executors];
            List<Integer> shuffled = new ArrayList<>();
            for (int i = 0; i < executors; i++) {
                shuffled.add(i);
            }
            Collections.shuffle(shuffled, random);
            for (int i = 0; i < executors; i++) {
                rank[shuffled.get(i)] = i;
            }
            orders.add(Comparator.comparingInt(i -> rank[i]));
        }
        int[] bestNodes = new int[executors];
        for (int i = 0; i < executors; i++) {
            bestNodes[i] = greedy.nodeOfWorker()[greedy.workerOf()[i]];
        }
        instance.refineNodes(bestNodes);
        double bestNodesCut = instance.cut(bestNodes);
        for (Comparator<Integer> order : orders) {
            Outcome<int[]> start = search.findNodes(order, SECOND_START_STEPS);
            if (start.isSuccess()) {
                int[] nodeOf = start.orElseThrow();
                instance.refineNodes(nodeOf);
                double cut = instance.cut(nodeOf);
                if (cut < bestNodesCut - 1e-9) {
                    bestNodes = nodeOf;
                    bestNodesCut = cut;
                }
            }
        }
        FeasibleNodeSearch.Assignment best = instance.refine(greedy);
        FeasibleNodeSearch.Assignment nodeLevel = instance.refine(search.split(bestNodes));
        return instance.cut(nodeLevel) < instance.cut(best) - 1e-9 ? nodeLevel : best;
    }

    /** Random restarts: many on small topologies, a few on large ones (each costs a local search). */
    private static int restarts(int executors) {
        return Math.max(2, Math.min(MAX_RESTARTS, RESTART_BUDGET / Math.max(1, executors)));
    }

    /** The topology as index arrays, shared by the repair, the second start and the local search. */
    private record Instance(double[] load, List<Map<Integer, Double>> adjacency, int limit, int workers,
                            int[] ports, double[] room) {

        static Instance of(TopologyModel topology, ClusterModel cluster, TrafficMatrix traffic, ExecutorLoads loads,
                           List<ExecutorId> executors, int limit, int workers) {
            Map<ExecutorId, Integer> index = indexOf(executors);
            double[] load = new double[executors.size()];
            List<Map<Integer, Double>> adjacency = new ArrayList<>();
            for (int i = 0; i < executors.size(); i++) {
                load[i] = loads.of(executors.get(i));
                Map<Integer, Double> neighbours = new TreeMap<>();
                for (Map.Entry<ExecutorId, Double> n : traffic.neighbours(executors.get(i)).entrySet()) {
                    Integer j = index.get(n.getKey());
                    if (j != null) {
                        neighbours.put(j, n.getValue());
                    }
                }
                adjacency.add(neighbours);
            }
            List<Node> nodes = cluster.nodes();
            int[] ports = new int[nodes.size()];
            double[] room = new double[nodes.size()];
            for (int n = 0; n < nodes.size(); n++) {
                ports[n] = cluster.usableSlotsOn(nodes.get(n).id(), topology.id()).size();
                room[n] = nodes.get(n).cpuCapacity() - nodes.get(n).cpuBackground();
            }
            return new Instance(load, adjacency, limit, workers, ports, room);
        }

        FeasibleNodeSearch search() {
            return new FeasibleNodeSearch(load, adjacency, limit, workers, ports, room);
        }

        /** A refined copy of {@code start}. */
        FeasibleNodeSearch.Assignment refine(FeasibleNodeSearch.Assignment start) {
            int[] workerOf = start.workerOf().clone();
            int[] nodeOfWorker = start.nodeOfWorker().clone();
            new InterNodeLocalSearch(workerOf, nodeOfWorker, load, adjacency, limit, ports, room).run(REFINEMENT_SWEEPS);
            return new FeasibleNodeSearch.Assignment(workerOf, nodeOfWorker);
        }

        /** Runs {@link NodeLevelLocalSearch} on {@code nodeOf} in place. */
        void refineNodes(int[] nodeOf) {
            new NodeLevelLocalSearch(nodeOf, load, adjacency, limit, workers, ports, room).run(REFINEMENT_SWEEPS);
        }

        /** Inter-node traffic of an executor → node assignment (each link once). */
        double cut(int[] nodeOf) {
            double cut = 0;
            for (int i = 0; i < load.length; i++) {
                for (Map.Entry<Integer, Double> n : adjacency.get(i).entrySet()) {
                    if (i < n.getKey() && nodeOf[i] != nodeOf[n.getKey()]) {
                        cut += n.getValue();
                    }
                }
            }
            return cut;
        }

        /** Inter-node traffic of an assignment (each link once). */
        double cut(FeasibleNodeSearch.Assignment a) {
            double cut = 0;
            for (int i = 0; i < load.length; i++) {
                for (Map.Entry<Integer, Double> n : adjacency.get(i).entrySet()) {
                    int j = n.getKey();
                    if (i < j && a.nodeOfWorker()[a.workerOf()[i]] != a.nodeOfWorker()[a.workerOf()[j]]) {
                        cut += n.getValue();
                    }
                }
            }
            return cut;
        }
    }

    private Outcome<int[]> executorsToWorkers(TopologyModel topology, ClusterModel cluster, TrafficMatrix traffic,
                                              ExecutorLoads loads, List<ExecutorId> executors, int workers) {
        Map<ExecutorId, Integer> index = indexOf(executors);
        double[] load = new double[executors.size()];
        for (int i = 0; i < load.length; i++) {
            load[i] = loads.of(executors.get(i));
        }
        double workerCap = 0;
        for (Node n : cluster.nodes()) {
            if (!cluster.usableSlotsOn(n.id(), topology.id()).isEmpty()) {
                workerCap = Math.max(workerCap, n.cpuCapacity() - n.cpuBackground());
            }
        }
        int limit = ExecutorsPerSlotLimit.of(alpha, executors.size(), workers);
        int[] countLimit = new int[workers];
        double[] loadLimit = new double[workers];
        double[] background = new double[workers];
        double[] capacity = new double[workers];
        for (int w = 0; w < workers; w++) {
            countLimit[w] = limit;
            loadLimit[w] = workerCap;
            capacity[w] = workerCap;
        }
        List<PairwiseGreedyPacker.Pair> pairs = new ArrayList<>();
        for (TrafficMatrix.Link link : traffic.linksByRateDescending()) {
            Integer a = index.get(link.a());
            Integer b = index.get(link.b());
            if (a != null && b != null) {
                pairs.add(new PairwiseGreedyPacker.Pair(a, b, link.rate()));
            }
        }
        PairwiseGreedyPacker packer = new PairwiseGreedyPacker(load, pairs,
                new PairwiseGreedyPacker.Bins(countLimit, loadLimit, background, capacity),
                i -> "executor " + executors.get(i));
        // The packer keeps its state between the two calls: fill empty workers after the pair greedy.
        return packer.pack(pairs).flatMap(ignored -> packer.fillEmptyBins());
    }

    private Outcome<FeasibleNodeSearch.Assignment> workersToNodes(TopologyModel topology, ClusterModel cluster, TrafficMatrix traffic,
                                                   ExecutorLoads loads, List<ExecutorId> executors, int[] workerOf,
                                                   int workers) {
        double[] workerLoad = new double[workers];
        for (int i = 0; i < executors.size(); i++) {
            workerLoad[workerOf[i]] += loads.of(executors.get(i));
        }
        Map<ExecutorId, Integer> index = indexOf(executors);
        Map<Long, Double> between = new HashMap<>();
        for (TrafficMatrix.Link link : traffic.linksByRateDescending()) {
            Integer a = index.get(link.a());
            Integer b = index.get(link.b());
            if (a == null || b == null || workerOf[a] == workerOf[b]) {
                continue;
            }
            int x = Math.min(workerOf[a], workerOf[b]);
            int y = Math.max(workerOf[a], workerOf[b]);
            between.merge((long) x * workers + y, link.rate(), Double::sum);
        }
        List<PairwiseGreedyPacker.Pair> pairs = new ArrayList<>();
        for (Map.Entry<Long, Double> e : between.entrySet()) {
            pairs.add(new PairwiseGreedyPacker.Pair((int) (e.getKey() / workers), (int) (e.getKey() % workers), e.getValue()));
        }
        List<Node> nodes = cluster.nodes();
        int[] countLimit = new int[nodes.size()];
        double[] loadLimit = new double[nodes.size()];
        double[] background = new double[nodes.size()];
        double[] capacity = new double[nodes.size()];
        for (int n = 0; n < nodes.size(); n++) {
            Node node = nodes.get(n);
            countLimit[n] = cluster.usableSlotsOn(node.id(), topology.id()).size();
            loadLimit[n] = node.cpuCapacity() - node.cpuBackground();
            background[n] = node.cpuBackground();
            capacity[n] = node.cpuCapacity();
        }
        PairwiseGreedyPacker packer = new PairwiseGreedyPacker(workerLoad, pairs,
                new PairwiseGreedyPacker.Bins(countLimit, loadLimit, background, capacity),
                w -> "a worker of topology " + topology.id());
        return packer.pack(pairs).map(nodeOf -> new FeasibleNodeSearch.Assignment(workerOf, nodeOf));
    }

    private static Placement toPlacement(TopologyModel topology, ClusterModel cluster, Placement current,
                                         List<ExecutorId> executors, int[] workerOf, int[] nodeOfWorker,
                                         int workers) {
        List<List<ExecutorId>> members = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            members.add(new ArrayList<>());
        }
        for (int i = 0; i < executors.size(); i++) {
            members.get(workerOf[i]).add(executors.get(i));
        }
        SlotId[] slotOfWorker = PortChoice.choose(topology.id(), cluster, current, members, nodeOfWorker);
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        for (int w = 0; w < workers; w++) {
            for (ExecutorId e : members.get(w)) {
                slotOf.put(e, slotOfWorker[w]);
            }
        }
        return Placement.of(slotOf);
    }

    private static Map<ExecutorId, Integer> indexOf(List<ExecutorId> executors) {
        Map<ExecutorId, Integer> index = new HashMap<>();
        for (int i = 0; i < executors.size(); i++) {
            index.put(executors.get(i), i);
        }
        return index;
    }
}
