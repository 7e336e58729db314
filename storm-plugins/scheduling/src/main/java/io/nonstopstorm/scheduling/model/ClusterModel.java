package io.nonstopstorm.scheduling.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The nodes a scheduler may use, in a fixed order (the order is meaningful: it is the VM order
 * {@code v_1, v_2, ...} of the model-driven paper and the round-robin order of the Aniello offline
 * scheduler), plus which slots other topologies already hold.
 */
public final class ClusterModel {

    private final List<Node> nodes;
    private final Map<String, Node> byId = new LinkedHashMap<>();
    private final Map<SlotId, String> slotOwners;

    /**
     * @param nodes      nodes in scheduling order
     * @param slotOwners occupied slots → id of the topology running there
     * @throws IllegalArgumentException on duplicate node ids or an owner entry for a slot no node has
     */
    public ClusterModel(List<Node> nodes, Map<SlotId, String> slotOwners) {
        this.nodes = List.copyOf(nodes);
        for (Node n : this.nodes) {
            if (byId.put(n.id(), n) != null) {
                throw new IllegalArgumentException("node " + n.id() + " listed twice");
            }
        }
        for (SlotId s : slotOwners.keySet()) {
            if (!hasSlot(s)) {
                throw new IllegalArgumentException("slot " + s + " is marked occupied but no node has it");
            }
        }
        this.slotOwners = Collections.unmodifiableMap(new TreeMap<>(slotOwners));
    }

    public static ClusterModel of(List<Node> nodes) {
        return new ClusterModel(nodes, Map.of());
    }

    /** {@code count} nodes named {@code n1..n<count>}, each with ports 1..{@code portsPerNode}. */
    public static ClusterModel uniform(int count, int portsPerNode, double cpuCapacity) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            List<Integer> ports = new ArrayList<>();
            for (int p = 1; p <= portsPerNode; p++) {
                ports.add(p);
            }
            nodes.add(Node.of("n" + i, ports, cpuCapacity));
        }
        return of(nodes);
    }

    public List<Node> nodes() {
        return nodes;
    }

    public Optional<Node> node(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** Index of the node in scheduling order. */
    public int indexOf(String nodeId) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).id().equals(nodeId)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown node " + nodeId);
    }

    public boolean hasSlot(SlotId slot) {
        Node n = byId.get(slot.nodeId());
        return n != null && n.ports().contains(slot.port());
    }

    /** Every slot, node by node in scheduling order, ports in node order. */
    public List<SlotId> allSlots() {
        List<SlotId> all = new ArrayList<>();
        for (Node n : nodes) {
            all.addAll(n.slots());
        }
        return all;
    }

    public Map<SlotId, String> slotOwners() {
        return slotOwners;
    }

    public Optional<String> ownerOf(SlotId slot) {
        return Optional.ofNullable(slotOwners.get(slot));
    }

    /** Whether {@code topologyId} may put a worker in {@code slot}: the slot exists and is free or its own. */
    public boolean usableBy(SlotId slot, String topologyId) {
        if (!hasSlot(slot)) {
            return false;
        }
        String owner = slotOwners.get(slot);
        return owner == null || owner.equals(topologyId);
    }

    /** Slots free or already held by {@code topologyId}, in scheduling order. */
    public List<SlotId> usableSlots(String topologyId) {
        return allSlots().stream().filter(s -> usableBy(s, topologyId)).toList();
    }

    /** Usable slots of one node, in port order of the node. */
    public List<SlotId> usableSlotsOn(String nodeId, String topologyId) {
        Node n = byId.get(nodeId);
        if (n == null) {
            return List.of();
        }
        return n.slots().stream().filter(s -> usableBy(s, topologyId)).toList();
    }

    /** The same cluster with some slots marked as held by {@code topologyId} (and its other slots released). */
    public ClusterModel withOwnedSlots(String topologyId, java.util.Collection<SlotId> slots) {
        Map<SlotId, String> owners = new TreeMap<>(slotOwners);
        owners.values().removeIf(topologyId::equals);
        for (SlotId s : slots) {
            owners.put(s, topologyId);
        }
        return new ClusterModel(nodes, owners);
    }

    public ClusterModel withNodes(List<Node> newNodes) {
        return new ClusterModel(newNodes, slotOwners);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterModel c && nodes.equals(c.nodes) && slotOwners.equals(c.slotOwners);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nodes, slotOwners);
    }

    @Override
    public String toString() {
        return "Cluster" + nodes.stream().map(Node::id).toList() + " occupied=" + slotOwners;
    }
}
