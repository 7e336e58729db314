package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.core.ComponentAllocation;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.wire.ExecutorId;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The component allocations SAM maps from. The model-driven paper gets them from model-based allocation
 * (MBA, in pycontrol's sizing); offline we take them from the input when given, else derive an MBA-like
 * one from the measured executor loads: one slot is the mean finite {@code cpu_capacity / ports} of the
 * nodes, a component needs {@code Σ load / slot} CPU, a full bundle is as many of its executors (at
 * their mean load) as fill one slot, and memory is not modelled (0).
 */
final class SamAllocations {

    private SamAllocations() {
    }

    static Outcome<Map<String, ComponentAllocation>> of(TopologyWorkload w, ClusterModel cluster,
                                                        Map<String, ComponentAllocation> given) {
        Map<String, ComponentAllocation> result = new LinkedHashMap<>();
        double slotCpu = slotCpu(cluster);
        for (String c : w.topology().graph().components()) {
            if (given.containsKey(c)) {
                result.put(c, given.get(c));
                continue;
            }
            List<ExecutorId> executors = w.topology().executorsOf(c);
            if (executors.isEmpty()) {
                continue;
            }
            double total = w.loads().sum(executors);
            if (total > 0 && !(slotCpu > 0)) {
                return Outcome.failure("sam derives allocations from loads and node cpu_capacity, but no node has a "
                        + "finite cpu_capacity; give params.sam.allocation for component " + c);
            }
            if (total == 0) {
                result.put(c, new ComponentAllocation(0, 0, ComponentAllocation.NO_BUNDLE));
                continue;
            }
            double mean = total / executors.size();
            int bundle = (int) Math.max(1, Math.floor(slotCpu / mean + 1e-9));
            result.put(c, new ComponentAllocation(total / slotCpu, 0, bundle));
        }
        return Outcome.success(result);
    }

    /** Mean CPU per slot over the nodes with a finite capacity and at least one port; NaN if none. */
    static double slotCpu(ClusterModel cluster) {
        double sum = 0;
        int count = 0;
        for (Node n : cluster.nodes()) {
            if (!Double.isInfinite(n.cpuCapacity()) && !n.ports().isEmpty()) {
                sum += n.cpuCapacity() / n.ports().size();
                count++;
            }
        }
        return count == 0 ? Double.NaN : sum / count;
    }
}
