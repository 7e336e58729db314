package io.nonstopstorm.scheduling.model;

import java.util.Objects;

/** A worker slot: one port of one node (Storm's {@code WorkerSlot}). */
public record SlotId(String nodeId, int port) implements Comparable<SlotId> {

    public SlotId {
        Objects.requireNonNull(nodeId, "nodeId");
    }

    @Override
    public int compareTo(SlotId o) {
        int c = nodeId.compareTo(o.nodeId);
        return c != 0 ? c : Integer.compare(port, o.port);
    }

    @Override
    public String toString() {
        return nodeId + ":" + port;
    }
}
