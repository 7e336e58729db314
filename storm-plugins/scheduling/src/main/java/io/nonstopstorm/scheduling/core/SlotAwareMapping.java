package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SAM, Shukla &amp; Simmhan's Slot-Aware Mapping (Algorithm 6). Sweeps the components in BFS order from
 * the sources; per sweep a component maps at most one bundle: a full bundle of τ̂ threads takes the next
 * empty slot (current VM first, then the following VMs, wrapping) exclusively; the remaining partial
 * bundle goes whole to the best-fit slot (smallest free CPU + memory that still fits its c and m).
 *
 * <p>Readings (docs/seed-specs.md §1.9): the bundle size is τ̂, not ω̂; when the residual thread count equals τ̂
 * although MBA charged only a fraction, the literal algorithm gives it an exclusive slot and the
 * remaining c, m clamp at 0; components with {@link ComponentAllocation#NO_BUNDLE} are partial bundles
 * only; "current VM" is the VM of the most recent placement; best-fit ties go to the lowest
 * (VM, slot) index. VMs are the cluster's nodes in order, their slots the usable ports in port order,
 * each slot 1.0 CPU and 1.0 memory.
 */
public final class SlotAwareMapping {

    private static final double EPS = 1e-9;

    private SlotAwareMapping() {
    }

    /**
     * @param allocation component → MBA allocation; every component with executors must have one
     */
    public static Outcome<Placement> map(TopologyModel topology, ClusterModel cluster,
                                         Map<String, ComponentAllocation> allocation) {
        List<String> order = topology.graph().breadthFirstOrder();
        for (String c : order) {
            if (!topology.executorsOf(c).isEmpty() && !allocation.containsKey(c)) {
                return Outcome.failure("no model-based allocation for component " + c);
            }
        }
        // Slots in VM order; vmOf[s] is the VM index of slot s.
        List<SlotId> slots = new ArrayList<>();
        List<Integer> vmOf = new ArrayList<>();
        List<Node> vms = cluster.nodes();
        for (int v = 0; v < vms.size(); v++) {
            for (SlotId s : cluster.usableSlotsOn(vms.get(v).id(), topology.id())) {
                slots.add(s);
                vmOf.add(v);
            }
        }
        double[] freeCpu = new double[slots.size()];
        double[] freeMem = new double[slots.size()];
        java.util.Arrays.fill(freeCpu, 1.0);
        java.util.Arrays.fill(freeMem, 1.0);

        Map<String, Integer> pending = new HashMap<>();
        Map<String, Integer> nextThread = new HashMap<>();
        Map<String, double[]> need = new HashMap<>();
        int total = 0;
        for (String c : order) {
            int threads = topology.executorsOf(c).size();
            pending.put(c, threads);
            nextThread.put(c, 0);
            ComponentAllocation a = allocation.get(c);
            need.put(c, a == null ? new double[] {0, 0} : new double[] {a.cpu(), a.memory()});
            total += threads;
        }

        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        int currentVm = 0;
        while (total > 0) {
            for (String c : order) {
                int tau = pending.get(c);
                if (tau == 0) {
                    continue;
                }
                int bundle = allocation.get(c).bundleSize();
                double[] cm = need.get(c);
                int take;
                int slot;
                if (tau >= bundle) {
                    slot = nextEmptySlot(freeCpu, freeMem, vmOf, currentVm, vms.size());
                    if (slot < 0) {
                        return Outcome.failure("insufficient resources: no empty slot for a full bundle of "
                                + bundle + " threads of " + c);
                    }
                    take = bundle;
                    cm[0] = Math.max(0, cm[0] - 1.0);
                    cm[1] = Math.max(0, cm[1] - 1.0);
                    freeCpu[slot] = 0;
                    freeMem[slot] = 0;
                } else {
                    slot = bestFitSlot(freeCpu, freeMem, cm[0], cm[1]);
                    if (slot < 0) {
                        return Outcome.failure(String.format("insufficient resources: no slot fits the partial bundle of %d"
                                + " threads of %s (cpu %.4f, memory %.4f)", tau, c, cm[0], cm[1]));
                    }
                    take = tau;
                    freeCpu[slot] -= cm[0];
                    freeMem[slot] -= cm[1];
                    cm[0] = 0;
                    cm[1] = 0;
                }
                List<ExecutorId> threads = topology.executorsOf(c);
                int from = nextThread.get(c);
                for (int k = from; k < from + take; k++) {
                    slotOf.put(threads.get(k), slots.get(slot));
                }
                nextThread.put(c, from + take);
                pending.put(c, tau - take);
                total -= take;
                currentVm = vmOf.get(slot);
            }
        }
        return Outcome.success(Placement.of(slotOf));
    }

    /** First untouched slot scanning VMs from {@code startVm}, wrapping around; -1 if none. */
    private static int nextEmptySlot(double[] freeCpu, double[] freeMem, List<Integer> vmOf, int startVm, int vmCount) {
        for (int k = 0; k < vmCount; k++) {
            int vm = (startVm + k) % vmCount;
            for (int s = 0; s < vmOf.size(); s++) {
                if (vmOf.get(s) == vm && freeCpu[s] >= 1.0 - EPS && freeMem[s] >= 1.0 - EPS) {
                    return s;
                }
            }
        }
        return -1;
    }

    /** Slot with the smallest free CPU + memory that still fits; ties to the lowest index; -1 if none. */
    private static int bestFitSlot(double[] freeCpu, double[] freeMem, double cpu, double mem) {
        int best = -1;
        for (int s = 0; s < freeCpu.length; s++) {
            if (freeCpu[s] + EPS >= cpu && freeMem[s] + EPS >= mem
                    && (best < 0 || freeCpu[s] + freeMem[s] < freeCpu[best] + freeMem[best] - EPS)) {
                best = s;
            }
        }
        return best;
    }
}
