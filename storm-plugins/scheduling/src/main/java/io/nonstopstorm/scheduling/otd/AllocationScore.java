package io.nonstopstorm.scheduling.otd;

import java.util.HashMap;
import java.util.Map;

/**
 * The paper's allocation-score change, eq. (5): moving executor e from its node n0 to node n gains
 * ASC = (traffic of e with the executors on n) - (traffic of e with the other executors on n0),
 * which is exactly the drop in total inter-node traffic the move causes. Each executor's traffic
 * per node is summed once up front, so a score costs O(1) and a whole OTD round O(pairs + E*W).
 */
public final class AllocationScore {
    private final Map<String, Map<String, Double>> trafficByNode = new HashMap<>();
    private final Map<String, String> executorNode = new HashMap<>();

    public AllocationScore(OtdSnapshot s) {
        Map<String, WorkerLoad> workers = s.workersById();
        s.executorToWorker().forEach((e, w) -> executorNode.put(e, workers.get(w).node()));
        s.traffic().forEach((pair, rate) -> {
            if (pair.from().equals(pair.to())) {
                return; // an executor talking to itself never crosses a node
            }
            String nodeOfTo = executorNode.get(pair.to());
            String nodeOfFrom = executorNode.get(pair.from());
            if (nodeOfTo == null || nodeOfFrom == null) {
                return; // traffic of executors not placed (e.g. already gone) cannot be moved
            }
            trafficByNode.computeIfAbsent(pair.from(), k -> new HashMap<>()).merge(nodeOfTo, rate, Double::sum);
            trafficByNode.computeIfAbsent(pair.to(), k -> new HashMap<>()).merge(nodeOfFrom, rate, Double::sum);
        });
    }

    public String nodeOf(String executor) {
        return executorNode.get(executor);
    }

    /** Traffic (both directions) between {@code executor} and the other executors on {@code node}. */
    public double trafficWith(String executor, String node) {
        return trafficByNode.getOrDefault(executor, Map.of()).getOrDefault(node, 0.0);
    }

    /** ASC of moving {@code executor} to {@code targetNode}; 0 when it stays on its node. */
    public double asc(String executor, String targetNode) {
        String n0 = executorNode.get(executor);
        if (n0 == null) {
            throw new IllegalArgumentException("unknown executor " + executor);
        }
        if (n0.equals(targetNode)) {
            return 0.0;
        }
        return trafficWith(executor, targetNode) - trafficWith(executor, n0);
    }
}
