package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.metricsplane.WorkerDocument;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.LoadSample;
import io.nonstopstorm.scheduling.model.NodeReading;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runtime measurements the traffic-aware schedulers need, supplied by the metrics plane
 * ({@link ZkSchedulingMetrics}). CPU values are in the unit of the node capacities (Hz for the Aniello
 * scheduler); nodes are supervisor ids.
 */
public interface SchedulingMetrics {

    /** Executor-pair tuple rates of a topology, or empty while none have been collected. */
    Optional<TrafficMatrix> traffic(String topologyId);

    /** CPU load of each executor of a topology. */
    ExecutorLoads executorLoads(String topologyId);

    /** CPU load on each node caused by everything except {@code topologyId}. */
    Map<String, Double> backgroundLoad(String topologyId);

    /** Recent total CPU load samples per node (for the overload window). */
    Map<String, List<LoadSample>> nodeLoadHistory();

    /** The newest size and use of each node (by supervisor id); nodes without a fresh figure are absent. */
    default Map<String, NodeReading> nodeReadings() {
        return Map.of();
    }

    /** CPU each node has in all (by supervisor id), in the unit of the loads; nodes never measured are absent. */
    default Map<String, Double> nodeCapacity() {
        return Map.of();
    }

    /**
     * The fresh metrics documents of a topology's workers, by worker {@code host:port}: OTD reads worker
     * CPU, receive queues and measurement windows from them. Empty while none have been accepted.
     */
    default Map<String, WorkerDocument> workerDocuments(String topologyId) {
        return Map.of();
    }

    /** Why the metrics plane refused a worker's document in the last refresh (say, stale), if it did. */
    default Optional<String> refusedDocument(String topologyId, String host, int port) {
        return Optional.empty();
    }

    /**
     * Reads the newest measurements; the dispatcher calls it once at the start of a round that needs them.
     *
     * @param hostOfNode supervisor id → the host its workers advertise (how the measurements name nodes)
     */
    default void refresh(Map<String, String> hostOfNode) {
    }

    /**
     * {@link #refresh(Map)}, refusing documents that name an executor their topology does not have.
     *
     * @param executorsOf topology id → its executors, for the topologies Nimbus knows this round
     */
    default void refresh(Map<String, String> hostOfNode, Map<String, Set<ExecutorId>> executorsOf) {
        refresh(hostOfNode);
    }

    /** No measurements at all: traffic-based rescheduling never triggers. */
    static SchedulingMetrics none() {
        return new None();
    }

    /** No measurements; a base for sources that supply only some of them. */
    class None implements SchedulingMetrics {
        @Override
        public Optional<TrafficMatrix> traffic(String topologyId) {
            return Optional.empty();
        }

        @Override
        public ExecutorLoads executorLoads(String topologyId) {
            return ExecutorLoads.none();
        }

        @Override
        public Map<String, Double> backgroundLoad(String topologyId) {
            return Map.of();
        }

        @Override
        public Map<String, List<LoadSample>> nodeLoadHistory() {
            return Map.of();
        }
    }
}
