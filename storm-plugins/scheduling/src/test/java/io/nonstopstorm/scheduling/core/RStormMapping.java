package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RSM, the R-Storm Mapping as Shukla &amp; Simmhan's Algorithm 5 describes it, kept only as the baseline
 * whose slot counts the paper reports (Storm itself ships the real R-Storm as ResourceAwareScheduler).
 *
 * <p>Sweeps the components in BFS order, one thread per component per sweep. VMs are tried in ascending
 * distance {@code d = w_M (M_j − m̄)² + w_C (C_j − c̄)² + w_N · NWDist(v̂, v_j)} (no square root, as
 * written); a VM qualifies if its free CPU ≥ c̄ and one of its slots (first in port order) has free memory
 * ≥ m̄. CPU is tracked per VM, memory per slot. v̂ is the VM of the previous thread. NWDist is 0 for v̂
 * itself, 0.5 for the same rack, 1.0 otherwise; distance ties keep the VM order.
 */
public final class RStormMapping {

    private static final double EPS = 1e-9;

    /** Distance weights; the paper gives none, the spec's reading is 1.0 each. */
    public record Weights(double memory, double cpu, double network) {
        public static final Weights UNIT = new Weights(1, 1, 1);
    }

    private RStormMapping() {
    }

    /**
     * @param demand per component, the single-thread CPU and memory
     * @param rackOf node id → rack; nodes missing from the map share one rack
     */
    public static Outcome<Placement> map(TopologyModel topology, ClusterModel cluster, Map<String, ThreadDemand> demand,
                                         Weights weights, Map<String, String> rackOf) {
        List<String> order = topology.graph().breadthFirstOrder();
        for (String c : order) {
            if (!topology.executorsOf(c).isEmpty() && !demand.containsKey(c)) {
                return Outcome.failure("no thread demand for component " + c);
            }
        }
        List<Node> vms = cluster.nodes();
        List<List<SlotId>> slotsOf = new ArrayList<>();
        double[] freeCpu = new double[vms.size()];
        double[] freeMem = new double[vms.size()];
        List<double[]> freeSlotMem = new ArrayList<>();
        for (int j = 0; j < vms.size(); j++) {
            List<SlotId> slots = cluster.usableSlotsOn(vms.get(j).id(), topology.id());
            slotsOf.add(slots);
            freeCpu[j] = slots.size();
            freeMem[j] = slots.size();
            double[] perSlot = new double[slots.size()];
            java.util.Arrays.fill(perSlot, 1.0);
            freeSlotMem.add(perSlot);
        }

        Map<String, Integer> placed = new HashMap<>();
        int remaining = 0;
        for (String c : order) {
            placed.put(c, 0);
            remaining += topology.executorsOf(c).size();
        }
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        int reference = 0;
        while (remaining > 0) {
            for (String c : order) {
                List<ExecutorId> threads = topology.executorsOf(c);
                int done = placed.get(c);
                if (done == threads.size()) {
                    continue;
                }
                ThreadDemand d = demand.get(c);
                List<Integer> byDistance = new ArrayList<>();
                for (int j = 0; j < vms.size(); j++) {
                    byDistance.add(j);
                }
                final int ref = reference;
                byDistance.sort(Comparator.comparingDouble(j -> weights.memory() * sq(freeMem[j] - d.memory())
                        + weights.cpu() * sq(freeCpu[j] - d.cpu())
                        + weights.network() * networkDistance(vms, ref, j, rackOf)));
                int vm = -1;
                int slot = -1;
                for (int j : byDistance) {
                    if (freeCpu[j] + EPS < d.cpu()) {
                        continue;
                    }
                    double[] mem = freeSlotMem.get(j);
                    for (int l = 0; l < mem.length; l++) {
                        if (mem[l] + EPS >= d.memory()) {
                            vm = j;
                            slot = l;
                            break;
                        }
                    }
                    if (vm >= 0) {
                        break;
                    }
                }
                if (vm < 0) {
                    return Outcome.failure("insufficient resources for a thread of " + c + " (" + done + " of "
                            + threads.size() + " mapped)");
                }
                slotOf.put(threads.get(done), slotsOf.get(vm).get(slot));
                freeCpu[vm] -= d.cpu();
                freeMem[vm] -= d.memory();
                freeSlotMem.get(vm)[slot] -= d.memory();
                placed.put(c, done + 1);
                remaining--;
                reference = vm;
            }
        }
        return Outcome.success(Placement.of(slotOf));
    }

    private static double networkDistance(List<Node> vms, int reference, int candidate, Map<String, String> rackOf) {
        if (reference == candidate) {
            return 0.0;
        }
        String a = rackOf.getOrDefault(vms.get(reference).id(), "");
        String b = rackOf.getOrDefault(vms.get(candidate).id(), "");
        return a.equals(b) ? 0.5 : 1.0;
    }

    private static double sq(double x) {
        return x * x;
    }
}
