package io.nonstopstorm.scheduling.model;

import java.util.List;
import java.util.Objects;

/**
 * A worker node (machine or VM) as the placement algorithms see it.
 *
 * <p>Capacities carry whatever unit the caller's loads use: Hz for the Aniello schedulers (the paper
 * measures load as CPU share × clock), a fraction or percent of the node for the Elastic Allocator.
 * The background values are what is already used on the node by everything <em>except</em> the topology
 * being placed; excluding the topology itself is what lets an algorithm re-run on its own output and get
 * the same answer.
 *
 * @param id                  supervisor id
 * @param ports               the node's worker ports in the node's order
 * @param cpuCapacity         CPU the topology's executors may use on this node (B_i for Aniello)
 * @param bandwidthCapacity   link capacity, in the traffic matrix's unit (tuples/s)
 * @param cpuBackground       CPU already used by other work
 * @param bandwidthBackground bandwidth already used by other work
 */
public record Node(String id, List<Integer> ports, double cpuCapacity, double bandwidthCapacity,
                   double cpuBackground, double bandwidthBackground) {

    public Node {
        Objects.requireNonNull(id, "id");
        ports = List.copyOf(ports);
        if (ports.stream().distinct().count() != ports.size()) {
            throw new IllegalArgumentException("node " + id + " lists a port twice: " + ports);
        }
        if (cpuCapacity < 0 || bandwidthCapacity < 0 || cpuBackground < 0 || bandwidthBackground < 0) {
            throw new IllegalArgumentException("node " + id + " has a negative capacity or background load");
        }
    }

    /** A node with unbounded CPU and bandwidth and nothing else running. */
    public static Node of(String id, List<Integer> ports) {
        return new Node(id, ports, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 0, 0);
    }

    /** A node with a CPU capacity, unbounded bandwidth and nothing else running. */
    public static Node of(String id, List<Integer> ports, double cpuCapacity) {
        return new Node(id, ports, cpuCapacity, Double.POSITIVE_INFINITY, 0, 0);
    }

    public Node withBackground(double cpu, double bandwidth) {
        return new Node(id, ports, cpuCapacity, bandwidthCapacity, cpu, bandwidth);
    }

    public Node withBandwidthCapacity(double capacity) {
        return new Node(id, ports, cpuCapacity, capacity, cpuBackground, bandwidthBackground);
    }

    public List<SlotId> slots() {
        return ports.stream().map(p -> new SlotId(id, p)).toList();
    }
}
