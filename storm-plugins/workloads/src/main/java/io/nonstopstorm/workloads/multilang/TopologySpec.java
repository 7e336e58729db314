package io.nonstopstorm.workloads.multilang;

import java.util.List;
import java.util.Map;

/** A topology as declared by a streamparse Topology (its Flux dict), plus topology conf defaults. */
public record TopologySpec(String name, List<ComponentSpec> spouts, List<ComponentSpec> bolts,
                           List<StreamSpec> streams, Map<String, Object> config) {
}
