package io.nonstopstorm.scheduling.core;

import java.util.List;
import java.util.Map;

/**
 * The instance the online scheduler's searches share ({@link FeasibleNodeSearch},
 * {@link NodeLevelLocalSearch}, {@link InterNodeLocalSearch}): executors by index with their loads and
 * traffic, and the nodes by index with their usable ports and room.
 */
abstract class PlacementSearch {

    /** Tolerance of load and traffic comparisons. */
    static final double EPS = 1e-9;

    /** CPU load per executor. */
    protected final double[] load;
    /** Per executor, neighbour → tuples/s exchanged (both directions summed). */
    protected final List<Map<Integer, Double>> adjacency;
    /** Most executors in one worker (M). */
    protected final int perWorkerLimit;
    /** Workers the placement uses (W'). */
    protected final int workers;
    /** Usable ports per node. */
    protected final int[] ports;
    /** Node capacity minus background, per node. */
    protected final double[] room;

    PlacementSearch(double[] load, List<Map<Integer, Double>> adjacency, int perWorkerLimit, int workers, int[] ports,
                    double[] room) {
        this.load = load;
        this.adjacency = adjacency;
        this.perWorkerLimit = perWorkerLimit;
        this.workers = workers;
        this.ports = ports;
        this.room = room;
    }
}
