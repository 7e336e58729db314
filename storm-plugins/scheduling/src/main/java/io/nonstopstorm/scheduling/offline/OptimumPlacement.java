package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.core.ExactInterNodeOptimum;
import io.nonstopstorm.scheduling.core.ExecutorsPerSlotLimit;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The exact minimum of inter-node traffic ({@link ExactInterNodeOptimum}) as a placement. The search
 * fixes only each executor's node; the workers are then cut so the topology has exactly
 * {@code W' = min(W, E)} of them, at most M(α) executors each and no more on a node than it has usable
 * ports: every node starts with the fewest workers its executors need and nodes take one more worker
 * in cluster order until W' is reached. A node's executors (by id) are dealt evenly over its workers,
 * which take its lowest usable ports.
 */
final class OptimumPlacement {

    private OptimumPlacement() {
    }

    static Outcome<TopologyPlan> place(TopologyWorkload w, ClusterModel cluster, SchedulerParams params) {
        TopologyModel topology = w.topology();
        int executors = topology.executors().size();
        SchedulerParams.Optimum limits = params.optimum();
        if (executors > limits.maxExecutors()) {
            return Outcome.failure("the exact optimum is only computed for small instances: this topology has "
                    + executors + " executors, the limit is " + limits.maxExecutors()
                    + " (params.optimum.max_executors)");
        }
        if (executors == 0) {
            return Outcome.success(TopologyPlan.of(Placement.empty()));
        }
        double alpha = params.aniello().alpha();
        Outcome<ExactInterNodeOptimum.Result> solved = new ExactInterNodeOptimum(alpha, limits.maxSearchNodes())
                .solve(topology, cluster, w.traffic(), w.loads());
        if (solved instanceof Outcome.Failure<ExactInterNodeOptimum.Result> f) {
            String hint = f.reason().startsWith("search limit") ? " (raise params.optimum.max_search_nodes)" : "";
            return Outcome.failure("exact optimum: " + f.reason() + hint);
        }
        ExactInterNodeOptimum.Result r = solved.orElseThrow();
        return Outcome.success(new TopologyPlan(toPlacement(topology, cluster, r.nodeOf(), alpha),
                List.of(String.format("exact optimum %.1f tuples/s inter-node, %d search nodes",
                        r.interNodeTraffic(), r.searchNodes()))));
    }

    static Placement toPlacement(TopologyModel topology, ClusterModel cluster, Map<ExecutorId, String> nodeOf,
                                 double alpha) {
        int workers = topology.effectiveWorkers();
        int limit = ExecutorsPerSlotLimit.of(alpha, topology.executors().size(), workers);
        Map<String, List<ExecutorId>> byNode = new TreeMap<>();
        nodeOf.forEach((e, n) -> byNode.computeIfAbsent(n, k -> new ArrayList<>()).add(e));
        List<Node> used = cluster.nodes().stream().filter(n -> byNode.containsKey(n.id())).toList();
        int[] count = new int[used.size()];
        int[] most = new int[used.size()];
        int total = 0;
        for (int i = 0; i < used.size(); i++) {
            int k = byNode.get(used.get(i).id()).size();
            count[i] = (k + limit - 1) / limit;
            most[i] = Math.min(k, cluster.usableSlotsOn(used.get(i).id(), topology.id()).size());
            total += count[i];
        }
        // The search guarantees Σ fewest ≤ W' ≤ Σ most, so this loop ends at W'.
        for (int i = 0; total < workers; i = (i + 1) % used.size()) {
            if (count[i] < most[i]) {
                count[i]++;
                total++;
            }
        }
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        for (int i = 0; i < used.size(); i++) {
            List<ExecutorId> members = byNode.get(used.get(i).id());
            members.sort(null);
            List<SlotId> ports = cluster.usableSlotsOn(used.get(i).id(), topology.id());
            for (int k = 0; k < members.size(); k++) {
                slotOf.put(members.get(k), ports.get(k % count[i]));
            }
        }
        return Placement.of(slotOf);
    }
}
