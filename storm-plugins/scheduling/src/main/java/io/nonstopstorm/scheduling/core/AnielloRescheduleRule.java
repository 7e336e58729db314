package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.LoadSample;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Aniello et al. §3.2.1: every P seconds a candidate is computed; it is applied when it cuts inter-node
 * traffic by more than R %, or when some node has had load {@code L_i ≥ B_i} for more than {@code X_i}
 * seconds. Pure: time comes in as an argument.
 *
 * <p>Readings: "more than R %" is strict, measured on the same traffic matrix for both placements (so
 * measurement noise cannot favour either). An overloaded node triggers only if the candidate lowers that
 * node's predicted load (background + executor loads), since applying a candidate that leaves the node
 * as loaded would only cost a migration; the authors' code does the same. A node counts as overloaded
 * when its most recent samples are all ≥ B_i and the first of that run is more than X_i before now.
 * A topology that is not fully placed always gets the candidate.
 */
public final class AnielloRescheduleRule {

    private static final double EPS = 1e-9;

    private final double improvementPercent;
    private final long defaultWindowMillis;
    private final Map<String, Long> windowMillisByNode;

    /**
     * @param improvementPercent  R in [0, 100]
     * @param defaultWindowMillis X_i for nodes without their own value
     * @param windowMillisByNode  per-node X_i
     */
    public AnielloRescheduleRule(double improvementPercent, long defaultWindowMillis, Map<String, Long> windowMillisByNode) {
        if (!(improvementPercent >= 0 && improvementPercent <= 100)) {
            throw new IllegalArgumentException("R must be in [0,100], got " + improvementPercent);
        }
        if (defaultWindowMillis < 0) {
            throw new IllegalArgumentException("X must be >= 0, got " + defaultWindowMillis);
        }
        this.improvementPercent = improvementPercent;
        this.defaultWindowMillis = defaultWindowMillis;
        this.windowMillisByNode = Map.copyOf(windowMillisByNode);
    }

    /** Whether a period P has passed since the last candidate was computed ({@code lastMillis < 0}: never). */
    public static boolean periodElapsed(long lastMillis, long nowMillis, long periodMillis) {
        return lastMillis < 0 || nowMillis - lastMillis >= periodMillis;
    }

    public RescheduleDecision decide(TopologyModel topology, ClusterModel cluster, TrafficMatrix traffic,
                                     ExecutorLoads loads, Placement current, Placement candidate,
                                     Map<String, List<LoadSample>> loadHistory, long nowMillis) {
        double now = InterNodeTraffic.of(traffic, current);
        double next = InterNodeTraffic.of(traffic, candidate);
        List<String> overloaded = overloadedNodes(cluster, loadHistory, nowMillis);

        if (!current.executors().containsAll(topology.executorIdSet())) {
            return new RescheduleDecision(true, "topology " + topology.id() + " is not fully placed", now, next, overloaded);
        }
        if (candidate.equals(current)) {
            return new RescheduleDecision(false, "candidate equals the current placement", now, next, overloaded);
        }
        List<String> relieved = new ArrayList<>();
        for (String nodeId : overloaded) {
            if (predictedLoad(cluster, loads, candidate, nodeId) < predictedLoad(cluster, loads, current, nodeId) - EPS) {
                relieved.add(nodeId);
            }
        }
        if (!relieved.isEmpty()) {
            return new RescheduleDecision(true, "node(s) " + relieved + " over capacity longer than their window;"
                    + " the candidate lowers their load", now, next, overloaded);
        }
        if (now > EPS && now - next > now * improvementPercent / 100.0 + EPS) {
            return new RescheduleDecision(true, String.format("inter-node traffic %.3f -> %.3f tuple/s (-%.1f %% > R=%.1f %%)",
                    now, next, 100.0 * (now - next) / now, improvementPercent), now, next, overloaded);
        }
        return new RescheduleDecision(false, String.format("inter-node traffic %.3f -> %.3f tuple/s is not a cut of more than %.1f %%%s",
                now, next, improvementPercent, overloaded.isEmpty() ? "" : "; overloaded " + overloaded + " not relieved"),
                now, next, overloaded);
    }

    /** Nodes with load ≥ capacity for more than their window X_i up to {@code nowMillis}. */
    public List<String> overloadedNodes(ClusterModel cluster, Map<String, List<LoadSample>> loadHistory, long nowMillis) {
        List<String> result = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            List<LoadSample> samples = new ArrayList<>(loadHistory.getOrDefault(node.id(), List.of()));
            samples.removeIf(s -> s.timeMillis() > nowMillis);
            samples.sort(Comparator.comparingLong(LoadSample::timeMillis));
            Long overSince = null;
            for (LoadSample s : samples) {
                if (s.load() >= node.cpuCapacity()) {
                    if (overSince == null) {
                        overSince = s.timeMillis();
                    }
                } else {
                    overSince = null;
                }
            }
            long window = windowMillisByNode.getOrDefault(node.id(), defaultWindowMillis);
            if (overSince != null && nowMillis - overSince > window) {
                result.add(node.id());
            }
        }
        return result;
    }

    private static double predictedLoad(ClusterModel cluster, ExecutorLoads loads, Placement placement, String nodeId) {
        double load = cluster.node(nodeId).map(Node::cpuBackground).orElse(0.0);
        for (Map.Entry<ExecutorId, SlotId> e : placement.asMap().entrySet()) {
            if (e.getValue().nodeId().equals(nodeId)) {
                load += loads.of(e.getKey());
            }
        }
        return load;
    }
}
