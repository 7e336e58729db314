package io.nonstopstorm.migration.plan;

import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One version of a node's local plan, as kept in the node's plan store.
 *
 * @param version              monotonic, +1 for every change of content
 * @param writtenAtMs          wall-clock time of the write (for measuring plan-to-effect delays)
 * @param ports                per worker port: the topology and executors it should run
 * @param topologyFingerprints per topology with a worker on this node: a digest of its whole
 *                             executor placement, so workers notice when a peer executor moved
 */
public record NodePlan(long version, long writtenAtMs, SortedMap<Integer, PortPlan> ports,
                       SortedMap<String, String> topologyFingerprints) {

    public NodePlan {
        if (version < 0) {
            throw new IllegalArgumentException("plan version must be >= 0, got " + version);
        }
        ports = Collections.unmodifiableSortedMap(new TreeMap<>(ports));
        topologyFingerprints = Collections.unmodifiableSortedMap(new TreeMap<>(topologyFingerprints));
    }

    /** The empty plan that precedes version 1. */
    public static NodePlan empty() {
        return new NodePlan(0, 0, new TreeMap<>(), new TreeMap<>());
    }

    public Optional<PortPlan> port(int port) {
        return Optional.ofNullable(ports.get(port));
    }

    /** Same ports and fingerprints, whatever the version and time. */
    public boolean sameContentAs(NodePlan other) {
        return ports.equals(other.ports) && topologyFingerprints.equals(other.topologyFingerprints);
    }

    /** This content as the next version. */
    public NodePlan asVersion(long newVersion, long nowMs) {
        return new NodePlan(newVersion, nowMs, ports, topologyFingerprints);
    }
}
