package io.nonstopstorm.migration.plan;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/** What one worker slot of a node should run: a topology and its executors there (without the system executor). */
public record PortPlan(String topologyId, SortedSet<ExecutorId> executors) {

    public PortPlan {
        Objects.requireNonNull(topologyId, "topologyId");
        if (topologyId.isBlank()) {
            throw new IllegalArgumentException("topology id is blank");
        }
        executors = Collections.unmodifiableSortedSet(new TreeSet<>(executors));
    }
}
