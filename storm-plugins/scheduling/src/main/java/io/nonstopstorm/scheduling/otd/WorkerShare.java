package io.nonstopstorm.scheduling.otd;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * OTD's worker CPU signal, derived here only: in-Nimbus OTD ({@code storm/OtdMeasurements}) and the offline
 * round the controller runs ({@code offline/OtdRound}) both call it, and the controller's display figure
 * ({@code pycontrol/controller/snapshot.py}, {@code shares_of}) is checked against the same vector
 * (tests/vectors/otd_shares/cases.json).
 *
 * <p>A worker's load as a share of its even part of the CPU its node leaves the topology (its room),
 * {@code load / (room / the topology's workers on the node)}, but never below the node's use of that room
 * ({@code the topology's load there / room}). The paper gives no formula; 1.0 means "uses all it can get if
 * the topology's workers share the node fairly". The floor is there because workers on one node share its
 * CPUs: a worker that happens to use less than its part of a busy node has no room to take more, and counted
 * as low it drew moves back onto a saturated node, and back again (results/otd/quick-compute-uneven-480).
 */
public final class WorkerShare {

    /** The share of every worker on a node with no room left (finite, so decision records stay JSON). */
    public static final double SATURATED = 1000.0;

    /**
     * A node's CPU as measured.
     *
     * @param capacity its CPUs (+infinity: unbounded, so no share)
     * @param busy     what every process on it uses, the topology's workers included; empty when other
     *                 processes are not to shrink the room (not measured, or not counted)
     */
    public record NodeCpu(double capacity, OptionalDouble busy) {
    }

    private WorkerShare() {
    }

    /** CPU other work uses on a node: its busy CPU minus the topology's own load there, never below 0. */
    public static double background(double busy, double topologyLoad) {
        return Math.max(0, busy - topologyLoad);
    }

    /**
     * Shares from raw measurements.
     *
     * @param nodeOfWorker every worker of the topology and its node (workers without a load still share it)
     * @param loads        measured load per worker, in the unit of the nodes' capacity
     * @param nodes        per node, its CPU; workers on a node missing here get no share
     * @return per worker with a load on a node of finite capacity, its share (at most {@link #SATURATED})
     */
    public static Map<String, Double> fromMeasurements(Map<String, String> nodeOfWorker, Map<String, Double> loads,
                                                       Map<String, NodeCpu> nodes) {
        Map<String, Double> own = topologyLoad(nodeOfWorker, loads);
        Map<String, Double> room = new HashMap<>();
        nodes.forEach((node, cpu) -> room.put(node, cpu.capacity()
                - (cpu.busy().isPresent() ? background(cpu.busy().getAsDouble(), own.getOrDefault(node, 0.0)) : 0)));
        return fromRoom(nodeOfWorker, loads, room);
    }

    /**
     * Shares when each node's room (its capacity minus other work) is already known.
     *
     * @param room per node, the CPU it leaves the topology (+infinity: unbounded; at most 0: saturated)
     */
    public static Map<String, Double> fromRoom(Map<String, String> nodeOfWorker, Map<String, Double> loads,
                                               Map<String, Double> room) {
        Map<String, Integer> workersOnNode = new HashMap<>();
        nodeOfWorker.values().forEach(n -> workersOnNode.merge(n, 1, Integer::sum));
        Map<String, Double> own = topologyLoad(nodeOfWorker, loads);
        Map<String, Double> out = new TreeMap<>();
        nodeOfWorker.forEach((worker, node) -> {
            Double load = loads.get(worker);
            Double r = room.get(node);
            if (load == null || r == null || Double.isInfinite(r) || Double.isNaN(r)) {
                return;
            }
            double share = r <= 0 ? SATURATED
                    : Math.max(load / (r / workersOnNode.get(node)), own.get(node) / r);
            out.put(worker, Math.min(share, SATURATED));
        });
        return out;
    }

    private static Map<String, Double> topologyLoad(Map<String, String> nodeOfWorker, Map<String, Double> loads) {
        Map<String, Double> own = new HashMap<>();
        nodeOfWorker.forEach((worker, node) -> own.merge(node, loads.getOrDefault(worker, 0.0), Double::sum));
        return own;
    }
}
