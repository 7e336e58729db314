package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.model.ClusterModel;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything an offline planning run needs: the cluster (its {@code slotOwners} are slots held by
 * topologies that are <em>not</em> planned here), the topologies to place, in the order they are
 * planned, and the schedulers' parameters.
 *
 * @param nodeMemoryMb memory per node for Storm's resource-aware scheduler; nodes missing are unbounded
 */
public record PlanningInput(ClusterModel cluster, List<TopologyWorkload> topologies, Map<String, Double> nodeMemoryMb,
                            SchedulerParams params) {

    public PlanningInput {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(params, "params");
        topologies = List.copyOf(topologies);
        nodeMemoryMb = Map.copyOf(nodeMemoryMb);
        Set<String> ids = new HashSet<>();
        for (TopologyWorkload t : topologies) {
            if (!ids.add(t.id())) {
                throw new IllegalArgumentException("topology " + t.id() + " listed twice");
            }
        }
    }

    public static PlanningInput of(ClusterModel cluster, List<TopologyWorkload> topologies) {
        return new PlanningInput(cluster, topologies, Map.of(), SchedulerParams.DEFAULTS);
    }

    public PlanningInput withParams(SchedulerParams newParams) {
        return new PlanningInput(cluster, topologies, nodeMemoryMb, newParams);
    }

    public PlanningInput withTopologies(List<TopologyWorkload> newTopologies) {
        return new PlanningInput(cluster, newTopologies, nodeMemoryMb, params);
    }
}
