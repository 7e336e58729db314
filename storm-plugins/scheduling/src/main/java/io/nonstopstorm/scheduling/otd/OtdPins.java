package io.nonstopstorm.scheduling.otd;

import io.nonstopstorm.scheduling.model.TopologyModel;
import java.util.Set;
import java.util.TreeSet;

/** The executors OTD must not move, whoever runs it (Nimbus's adapter or the controller's planner). */
public final class OtdPins {
    private OtdPins() {
    }

    /**
     * {@code pinned} plus every executor of a source component (a spout). Spouts do not move loss-free:
     * the new instance starts its feed afresh and the old instance's tuples in flight are orphaned (see
     * storm-plugins/migration/README.md, Limits). In the OTD benchmark a moved spout with
     * {@code topology.max.spout.pending} 100 stopped emitting after its first tuples and the topology
     * stayed at 0 acked/s for the rest of the run.
     */
    public static Set<String> withSources(Set<String> pinned, TopologyModel topology) {
        Set<String> out = new TreeSet<>(pinned);
        topology.sourceExecutors().forEach(e -> out.add(e.toString()));
        return out;
    }
}
