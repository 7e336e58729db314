package io.nonstopstorm.scheduling.otd;

/**
 * OTD's worker CPU signal: a worker's load as a share of its even part of the CPU its node has left for
 * the topology, {@code load / (room / the topology's workers on the node)}. The paper gives no formula;
 * this one makes 1.0 mean "the worker uses all it can get if the topology's workers share the node fairly".
 * The controller computes the same figure (pycontrol/controller/snapshot.py, {@code worker_shares}).
 */
public final class WorkerShare {

    private WorkerShare() {
    }

    /**
     * @param loadCores             what the worker uses (any unit, the same as {@code roomCores})
     * @param roomCores             what the node offers the topology: its capacity minus other work
     * @param topologyWorkersOnNode the topology's workers sharing that room (at least 1)
     * @return 0 when the room is unbounded; +infinity for a loaded worker on a node with no room left
     */
    public static double of(double loadCores, double roomCores, int topologyWorkersOnNode) {
        if (topologyWorkersOnNode < 1) {
            throw new IllegalArgumentException("a worker shares its node with at least itself, got " + topologyWorkersOnNode);
        }
        if (Double.isInfinite(roomCores)) {
            return 0;
        }
        if (roomCores <= 0) {
            return loadCores > 0 ? Double.POSITIVE_INFINITY : 0;
        }
        return loadCores / (roomCores / topologyWorkersOnNode);
    }
}
