package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.model.Placement;

import java.util.List;

/** What a per-topology core decided for one topology. */
public record TopologyPlan(Placement placement, List<String> notes) {

    public TopologyPlan {
        notes = List.copyOf(notes);
    }

    public static TopologyPlan of(Placement placement) {
        return new TopologyPlan(placement, List.of());
    }
}
