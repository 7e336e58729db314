package io.nonstopstorm.scheduling.model;

import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where each executor runs: executor → slot. Immutable; being a map, it places every executor at
 * most once by construction.
 */
public final class Placement {

    private static final Placement EMPTY = new Placement(Map.of());

    private final SortedMap<ExecutorId, SlotId> slotOf;

    private Placement(Map<ExecutorId, SlotId> slotOf) {
        this.slotOf = Collections.unmodifiableSortedMap(new TreeMap<>(slotOf));
    }

    public static Placement of(Map<ExecutorId, SlotId> slotOf) {
        for (Map.Entry<ExecutorId, SlotId> e : slotOf.entrySet()) {
            Objects.requireNonNull(e.getKey(), "executor");
            Objects.requireNonNull(e.getValue(), "slot of " + e.getKey());
        }
        return new Placement(slotOf);
    }

    public static Placement empty() {
        return EMPTY;
    }

    public Optional<SlotId> slotOf(ExecutorId e) {
        return Optional.ofNullable(slotOf.get(e));
    }

    public Optional<String> nodeOf(ExecutorId e) {
        return slotOf(e).map(SlotId::nodeId);
    }

    public boolean isPlaced(ExecutorId e) {
        return slotOf.containsKey(e);
    }

    public SortedMap<ExecutorId, SlotId> asMap() {
        return slotOf;
    }

    public Set<ExecutorId> executors() {
        return slotOf.keySet();
    }

    public int size() {
        return slotOf.size();
    }

    public boolean isEmpty() {
        return slotOf.isEmpty();
    }

    /** Slot → its executors (sorted), only slots that hold something. */
    public SortedMap<SlotId, List<ExecutorId>> executorsBySlot() {
        SortedMap<SlotId, List<ExecutorId>> m = new TreeMap<>();
        for (Map.Entry<ExecutorId, SlotId> e : slotOf.entrySet()) {
            m.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
        }
        m.replaceAll((k, v) -> List.copyOf(v));
        return Collections.unmodifiableSortedMap(m);
    }

    public SortedSet<SlotId> usedSlots() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(slotOf.values()));
    }

    public SortedSet<String> usedNodes() {
        SortedSet<String> nodes = new TreeSet<>();
        for (SlotId s : slotOf.values()) {
            nodes.add(s.nodeId());
        }
        return Collections.unmodifiableSortedSet(nodes);
    }

    /** Executors that sit on a different slot in {@code other} (or are missing from it). */
    public Set<ExecutorId> movedComparedTo(Placement other) {
        Set<ExecutorId> moved = new TreeSet<>();
        for (Map.Entry<ExecutorId, SlotId> e : slotOf.entrySet()) {
            if (!e.getValue().equals(other.slotOf.get(e.getKey()))) {
                moved.add(e.getKey());
            }
        }
        return moved;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Placement p && slotOf.equals(p.slotOf);
    }

    @Override
    public int hashCode() {
        return slotOf.hashCode();
    }

    @Override
    public String toString() {
        return "Placement" + executorsBySlot();
    }
}
