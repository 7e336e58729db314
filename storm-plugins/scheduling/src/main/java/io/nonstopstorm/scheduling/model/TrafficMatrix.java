package io.nonstopstorm.scheduling.model;

import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Measured tuple rates between executors (tuples/s, directed). Immutable; build with {@link #builder()}.
 * Most algorithms only care how much two executors talk in total, which {@link #between} gives.
 */
public final class TrafficMatrix {

    /** A directed pair of executors. */
    public record Flow(ExecutorId from, ExecutorId to) {
    }

    /** Two executors and the tuples/s they exchange in both directions together. */
    public record Link(ExecutorId a, ExecutorId b, double rate) {
    }

    private static final TrafficMatrix EMPTY = new TrafficMatrix(Map.of());

    private final Map<Flow, Double> directed;
    private final Map<ExecutorId, Map<ExecutorId, Double>> undirected = new HashMap<>();

    private TrafficMatrix(Map<Flow, Double> directed) {
        this.directed = Collections.unmodifiableMap(new LinkedHashMap<>(directed));
        for (Map.Entry<Flow, Double> e : directed.entrySet()) {
            ExecutorId a = e.getKey().from();
            ExecutorId b = e.getKey().to();
            undirected.computeIfAbsent(a, k -> new TreeMap<>()).merge(b, e.getValue(), Double::sum);
            undirected.computeIfAbsent(b, k -> new TreeMap<>()).merge(a, e.getValue(), Double::sum);
        }
    }

    public static TrafficMatrix empty() {
        return EMPTY;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Tuples/s sent from {@code from} to {@code to}. */
    public double rate(ExecutorId from, ExecutorId to) {
        return directed.getOrDefault(new Flow(from, to), 0.0);
    }

    /** Tuples/s exchanged by {@code a} and {@code b}, both directions summed. */
    public double between(ExecutorId a, ExecutorId b) {
        Map<ExecutorId, Double> m = undirected.get(a);
        return m == null ? 0.0 : m.getOrDefault(b, 0.0);
    }

    /** Executors that exchange tuples with {@code e}, with the summed rate; sorted by executor id. */
    public Map<ExecutorId, Double> neighbours(ExecutorId e) {
        Map<ExecutorId, Double> m = undirected.get(e);
        return m == null ? Map.of() : Collections.unmodifiableMap(m);
    }

    /** Total tuples/s into and out of {@code e}. */
    public double totalOf(ExecutorId e) {
        return neighbours(e).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    public Map<Flow, Double> flows() {
        return directed;
    }

    /** Executors that appear in at least one flow. */
    public Set<ExecutorId> executors() {
        return Collections.unmodifiableSet(new TreeSet<>(undirected.keySet()));
    }

    /**
     * Every unordered pair with positive traffic, heaviest first; ties by the pair's executor ids so the
     * order is deterministic.
     */
    public List<Link> linksByRateDescending() {
        List<Link> links = new ArrayList<>();
        for (Map.Entry<ExecutorId, Map<ExecutorId, Double>> e : new TreeMap<>(undirected).entrySet()) {
            for (Map.Entry<ExecutorId, Double> n : e.getValue().entrySet()) {
                if (e.getKey().compareTo(n.getKey()) < 0 && n.getValue() > 0) {
                    links.add(new Link(e.getKey(), n.getKey(), n.getValue()));
                }
            }
        }
        links.sort(Comparator.comparingDouble(Link::rate).reversed()
                .thenComparing(Link::a).thenComparing(Link::b));
        return links;
    }

    public double total() {
        return directed.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    @Override
    public String toString() {
        return "TrafficMatrix" + directed;
    }

    public static final class Builder {
        private final Map<Flow, Double> directed = new LinkedHashMap<>();

        /** Adds {@code tuplesPerSecond} to the flow {@code from -> to}; self-flows never cross a slot and are dropped. */
        public Builder add(ExecutorId from, ExecutorId to, double tuplesPerSecond) {
            if (tuplesPerSecond < 0 || Double.isNaN(tuplesPerSecond)) {
                throw new IllegalArgumentException("traffic " + from + "->" + to + " must be >= 0, got " + tuplesPerSecond);
            }
            if (!from.equals(to) && tuplesPerSecond > 0) {
                directed.merge(new Flow(from, to), tuplesPerSecond, Double::sum);
            }
            return this;
        }

        public TrafficMatrix build() {
            return new TrafficMatrix(directed);
        }
    }
}
