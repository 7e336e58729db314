package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.core.ComponentAllocation;
import io.nonstopstorm.scheduling.core.SlotAwareMapping;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.TopologyModel;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.TopologyDetails;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Shukla &amp; Simmhan's slot-aware mapping (SAM) as a Nimbus plugin. The model-based allocation (threads
 * per component = parallelism, CPU and memory in slot fractions, bundle size) comes with the topology,
 * as the paper's offline planner writes it:
 *
 * <pre>
 * nonstop.scheduler: slot-aware              # or: sam
 * nonstop.sam.allocation:
 *   parse: {cpu: 1.55, memory: 1.23, bundle: 1}
 *   source: {cpu: 0.10, memory: 0.15}          # no bundle: partial only
 * </pre>
 *
 * VMs are the supervisors in id order, their slots the free or own ports. Like the paper's plugin it maps
 * once, when executors are unassigned, and leaves a placed topology alone. Components not listed (for
 * example Storm's {@code __acker}) are mapped as partial bundles with no CPU or memory.
 */
public class SlotAwareStormScheduler extends ConfiguredScheduler {

    public static final String NAME = "slot-aware";
    public static final String ALLOCATION_KEY = "nonstop.sam.allocation";

    public SlotAwareStormScheduler() {
        super(NAME, Set.of("sam"), false);
    }

    @Override
    protected Outcome<Step> plan(TopologyDetails td, Cluster cluster) {
        if (cluster.getUnassignedExecutors(td).isEmpty()) {
            return Outcome.success(Step.keep("all executors placed"));
        }
        Map<String, Object> raw = new TopologyConf(td.getConf()).map(ALLOCATION_KEY);
        if (raw == null) {
            return Outcome.failure(ALLOCATION_KEY + " is missing from the topology configuration");
        }
        TopologyModel topology = StormModelMapper.topology(td);
        Map<String, ComponentAllocation> allocation = new HashMap<>();
        for (String component : topology.graph().components()) {
            Object entry = raw.get(component);
            if (entry == null) {
                allocation.put(component, new ComponentAllocation(0, 0, ComponentAllocation.NO_BUNDLE));
                continue;
            }
            if (!(entry instanceof Map)) {
                return Outcome.failure(ALLOCATION_KEY + "." + component + " must be a map with cpu, memory, bundle");
            }
            @SuppressWarnings("unchecked")
            TopologyConf c = new TopologyConf((Map<String, Object>) entry);
            double bundle = c.nonNegative("bundle", ComponentAllocation.NO_BUNDLE);
            allocation.put(component, new ComponentAllocation(c.nonNegative("cpu", 0), c.nonNegative("memory", 0),
                    bundle >= ComponentAllocation.NO_BUNDLE ? ComponentAllocation.NO_BUNDLE : (int) bundle));
        }
        ClusterModel model = StormModelMapper.cluster(cluster, this::nodeCapacity, node -> 0.0);
        return SlotAwareMapping.map(topology, model, allocation)
                .map(p -> Step.apply(p, "slot-aware mapping on " + p.usedSlots().size() + " slot(s)"));
    }
}
