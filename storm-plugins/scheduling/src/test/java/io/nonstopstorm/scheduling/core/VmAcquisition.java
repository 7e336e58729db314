package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Shukla &amp; Simmhan §7.1: buy ρ slots as {@code ⌊ρ/p̂⌋} VMs of the largest size p̂, plus the smallest
 * VM size that covers the remainder; VMs are ordered as bought (big first). Used to turn a slot count
 * into the VM list the mappers run on, and to repeat the paper's "add one slot and retry" procedure.
 */
public final class VmAcquisition {

    private VmAcquisition() {
    }

    /**
     * @param slots    ρ ≥ 0
     * @param vmSizes  available slot counts per VM, e.g. {1, 2, 4} for Azure D1–D3
     * @return nodes {@code vm1, vm2, …} with ports 1..p_j
     */
    public static ClusterModel acquire(int slots, List<Integer> vmSizes) {
        TreeSet<Integer> sizes = new TreeSet<>(vmSizes);
        if (sizes.isEmpty() || sizes.first() < 1) {
            throw new IllegalArgumentException("VM sizes must be >= 1, got " + vmSizes);
        }
        int largest = sizes.last();
        List<Integer> bought = new ArrayList<>();
        for (int i = 0; i < slots / largest; i++) {
            bought.add(largest);
        }
        int rest = slots % largest;
        if (rest > 0) {
            bought.add(sizes.ceiling(rest));
        }
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < bought.size(); i++) {
            List<Integer> ports = new ArrayList<>();
            for (int p = 1; p <= bought.get(i); p++) {
                ports.add(p);
            }
            nodes.add(Node.of("vm" + (i + 1), ports));
        }
        return ClusterModel.of(nodes);
    }

    /**
     * The experiment's retry loop: starting at {@code fromSlots}, acquire VMs and run {@code mapper}; on
     * failure add one slot, up to {@code maxSlots}. Returns the first slot count that maps.
     */
    public static Outcome<Integer> slotsUntilMapped(int fromSlots, int maxSlots, List<Integer> vmSizes,
                                                    Function<ClusterModel, Outcome<?>> mapper) {
        String last = "no attempt";
        for (int rho = fromSlots; rho <= maxSlots; rho++) {
            Outcome<?> o = mapper.apply(acquire(rho, vmSizes));
            if (o.isSuccess()) {
                return Outcome.success(rho);
            }
            last = o.reasonOrNull();
        }
        return Outcome.failure("no mapping with up to " + maxSlots + " slots; last failure: " + last);
    }
}
