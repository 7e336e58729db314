package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Aniello, Baldoni, Querzoni (DEBS'13) §3.1, the offline (topology-based) scheduler.
 *
 * <ol>
 *   <li>Use {@code W' = min(W, E)} workers, each holding at most {@link ExecutorsPerSlotLimit M(α)}
 *       executors.</li>
 *   <li>Walk the components in a topological linearisation φ. The executors of the i-th component go
 *       round-robin over its <em>primary</em> workers: those already holding executors of a component
 *       that directly emits to it. Once {@code i > ⌈β·C⌉} every still-empty worker is primary too, and
 *       comes first ("forced to use empty slots"). When no primary worker has room the executor goes
 *       round-robin over the remaining workers with room.</li>
 *   <li>Workers go to nodes round-robin (node order of the {@link ClusterModel}), each taking the node's
 *       lowest usable port.</li>
 * </ol>
 *
 * <p>Readings where the seed is silent: the first component (no upstream) has no primary workers, so
 * its executors spread round-robin over all workers; with β = 1 the forcing never triggers and some
 * workers may stay empty (a topology then runs on fewer workers, never more); workers left empty get no
 * slot. The schedule only fails when fewer than {@code W'} usable slots exist (the paper's feasibility
 * condition). It ignores loads and traffic by design.
 */
public final class AnielloOfflineScheduler {

    private final double alpha;
    private final double beta;

    public AnielloOfflineScheduler(double alpha, double beta) {
        ExecutorsPerSlotLimit.requireUnit("alpha", alpha);
        ExecutorsPerSlotLimit.requireUnit("beta", beta);
        this.alpha = alpha;
        this.beta = beta;
    }

    public Outcome<Placement> schedule(TopologyModel topology, ClusterModel cluster) {
        int executors = topology.executors().size();
        if (executors == 0) {
            return Outcome.success(Placement.empty());
        }
        int workers = topology.effectiveWorkers();
        List<SlotId> usable = cluster.usableSlots(topology.id());
        if (usable.size() < workers) {
            return Outcome.failure("topology " + topology.id() + " needs " + workers + " slots but only "
                    + usable.size() + " are free or its own");
        }
        List<List<ExecutorId>> byWorker = partition(topology, workers);
        return Outcome.success(toSlots(topology, cluster, byWorker));
    }

    /** Steps 1–2: executors → abstract workers 0..W'-1. */
    List<List<ExecutorId>> partition(TopologyModel topology, int workers) {
        int limit = ExecutorsPerSlotLimit.of(alpha, topology.executors().size(), workers);
        List<List<ExecutorId>> members = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            members.add(new ArrayList<>());
        }
        Map<ExecutorId, Integer> workerOf = new HashMap<>();
        List<String> phi = topology.graph().topologicalOrder();
        int components = phi.size();
        int forceFrom = (int) Math.ceil(beta * components - 1e-9);

        for (int i = 1; i <= components; i++) {
            String component = phi.get(i - 1);
            Set<Integer> upstreamWorkers = new LinkedHashSet<>();
            for (String up : topology.graph().upstreamOf(component)) {
                for (ExecutorId e : topology.executorsOf(up)) {
                    upstreamWorkers.add(workerOf.get(e));
                }
            }
            List<Integer> primary = new ArrayList<>();
            if (i > forceFrom) {
                for (int w = 0; w < workers; w++) {
                    if (members.get(w).isEmpty()) {
                        primary.add(w);
                    }
                }
            }
            for (int w = 0; w < workers; w++) {
                if (upstreamWorkers.contains(w) && !primary.contains(w) && members.get(w).size() < limit) {
                    primary.add(w);
                }
            }
            List<Integer> secondary = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                if (!primary.contains(w) && members.get(w).size() < limit) {
                    secondary.add(w);
                }
            }
            RoundRobin primaryTurn = new RoundRobin(primary);
            RoundRobin secondaryTurn = new RoundRobin(secondary);
            for (ExecutorId e : topology.executorsOf(component)) {
                int w = primaryTurn.next(members, limit);
                if (w < 0) {
                    w = secondaryTurn.next(members, limit);
                }
                if (w < 0) {
                    // Cannot happen: W'·M ≥ E and every worker with room is primary or secondary.
                    throw new IllegalStateException("no worker with room for " + e);
                }
                members.get(w).add(e);
                workerOf.put(e, w);
            }
        }
        return members;
    }

    /** Step 3: non-empty workers → nodes round-robin, lowest usable port first. */
    private static Placement toSlots(TopologyModel topology, ClusterModel cluster, List<List<ExecutorId>> byWorker) {
        List<List<SlotId>> freePorts = new ArrayList<>();
        for (var node : cluster.nodes()) {
            freePorts.add(new ArrayList<>(cluster.usableSlotsOn(node.id(), topology.id())));
        }
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        int nodeCursor = 0;
        for (List<ExecutorId> worker : byWorker) {
            if (worker.isEmpty()) {
                continue;
            }
            while (freePorts.get(nodeCursor % freePorts.size()).isEmpty()) {
                nodeCursor++;
            }
            SlotId slot = freePorts.get(nodeCursor % freePorts.size()).remove(0);
            nodeCursor++;
            for (ExecutorId e : worker) {
                slotOf.put(e, slot);
            }
        }
        return Placement.of(slotOf);
    }

    /** Round-robin over a fixed list, skipping members that are full. */
    private static final class RoundRobin {
        private final List<Integer> order;
        private int cursor;

        RoundRobin(List<Integer> order) {
            this.order = order;
        }

        int next(List<List<ExecutorId>> members, int limit) {
            for (int k = 0; k < order.size(); k++) {
                int w = order.get((cursor + k) % order.size());
                if (members.get(w).size() < limit) {
                    cursor = (cursor + k + 1) % order.size();
                    return w;
                }
            }
            return -1;
        }
    }
}
