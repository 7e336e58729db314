package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.model.Placement;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The placement a planner chose for each topology (in input order) and what it wants the reader to know
 * about each (e.g. OTD's decision, executors spread best-effort).
 */
public record PlanningResult(Map<String, Placement> placements, Map<String, List<String>> notes) {

    public PlanningResult {
        placements = Collections.unmodifiableMap(new LinkedHashMap<>(placements));
        Map<String, List<String>> copy = new LinkedHashMap<>();
        notes.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        notes = Collections.unmodifiableMap(copy);
    }

    public Placement placementOf(String topologyId) {
        return placements.getOrDefault(topologyId, Placement.empty());
    }

    public List<String> notesOf(String topologyId) {
        return notes.getOrDefault(topologyId, List.of());
    }
}
