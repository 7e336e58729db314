package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;

import java.util.Map;
import java.util.Objects;

/**
 * One topology of an offline planning run with everything measured about it.
 *
 * @param traffic         executor-pair tuple rates
 * @param loads           CPU per executor, in the unit of the node capacities
 * @param current         where it runs now (empty if not running); OTD starts from it, the online
 *                        scheduler keeps workers on their ports
 * @param memoryMb        per component, the memory one executor needs (only Storm's resource-aware
 *                        scheduler reads it); components missing use Storm's default
 * @param workerReadings  measured worker CPU load / queue per slot of {@code current} (OTD only);
 *                        slots missing count their executors' loads and queue 0
 */
public record TopologyWorkload(TopologyModel topology, TrafficMatrix traffic, ExecutorLoads loads, Placement current,
                               Map<String, Double> memoryMb, Map<SlotId, WorkerReading> workerReadings) {

    public TopologyWorkload {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(traffic, "traffic");
        Objects.requireNonNull(loads, "loads");
        Objects.requireNonNull(current, "current");
        memoryMb = Map.copyOf(memoryMb);
        workerReadings = Map.copyOf(workerReadings);
    }

    /** A workload with traffic and loads only: not running, default memory, no worker readings. */
    public static TopologyWorkload of(TopologyModel topology, TrafficMatrix traffic, ExecutorLoads loads) {
        return new TopologyWorkload(topology, traffic, loads, Placement.empty(), Map.of(), Map.of());
    }

    public TopologyWorkload withCurrent(Placement placement) {
        return new TopologyWorkload(topology, traffic, loads, placement, memoryMb, workerReadings);
    }

    public String id() {
        return topology.id();
    }
}
