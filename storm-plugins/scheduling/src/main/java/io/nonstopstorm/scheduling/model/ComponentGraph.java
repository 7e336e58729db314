package io.nonstopstorm.scheduling.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The component DAG of a topology. Components keep the order they were declared in; that order breaks
 * every tie in {@link #topologicalOrder()}, so results are deterministic.
 */
public final class ComponentGraph {

    private final List<String> components;
    private final List<Edge> edges;
    private final Map<String, List<String>> upstream = new HashMap<>();
    private final Map<String, List<String>> downstream = new HashMap<>();
    private final List<String> topologicalOrder;

    /**
     * @throws IllegalArgumentException on a duplicate component, an edge naming an unknown component, a
     *                                  self-loop or a cycle (the schedulers assume acyclic topologies)
     */
    public ComponentGraph(List<String> components, List<Edge> edges) {
        Set<String> seen = new LinkedHashSet<>(components);
        if (seen.size() != components.size()) {
            throw new IllegalArgumentException("a component is declared twice: " + components);
        }
        this.components = List.copyOf(components);
        this.edges = List.copyOf(new LinkedHashSet<>(edges));
        for (String c : components) {
            upstream.put(c, new ArrayList<>());
            downstream.put(c, new ArrayList<>());
        }
        for (Edge e : this.edges) {
            if (!seen.contains(e.from()) || !seen.contains(e.to())) {
                throw new IllegalArgumentException("edge " + e + " names an unknown component");
            }
            if (e.from().equals(e.to())) {
                throw new IllegalArgumentException("self-loop on component " + e.from());
            }
            downstream.get(e.from()).add(e.to());
            upstream.get(e.to()).add(e.from());
        }
        this.topologicalOrder = computeTopologicalOrder();
    }

    /** A chain {@code c1 -> c2 -> ... -> cn}. */
    public static ComponentGraph chain(String... components) {
        List<Edge> edges = new ArrayList<>();
        for (int i = 1; i < components.length; i++) {
            edges.add(new Edge(components[i - 1], components[i]));
        }
        return new ComponentGraph(List.of(components), edges);
    }

    private List<String> computeTopologicalOrder() {
        Map<String, Integer> indegree = new LinkedHashMap<>();
        for (String c : components) {
            indegree.put(c, upstream.get(c).size());
        }
        // Kahn's algorithm, always taking the earliest-declared ready component.
        List<String> order = new ArrayList<>();
        Set<String> done = new HashSet<>();
        while (order.size() < components.size()) {
            String next = null;
            for (String c : components) {
                if (!done.contains(c) && indegree.get(c) == 0) {
                    next = c;
                    break;
                }
            }
            if (next == null) {
                throw new IllegalArgumentException("component graph has a cycle among "
                        + components.stream().filter(c -> !done.contains(c)).toList());
            }
            done.add(next);
            order.add(next);
            for (String d : downstream.get(next)) {
                indegree.merge(d, -1, Integer::sum);
            }
        }
        return Collections.unmodifiableList(order);
    }

    public List<String> components() {
        return components;
    }

    public List<Edge> edges() {
        return edges;
    }

    public boolean contains(String component) {
        return upstream.containsKey(component);
    }

    /** Components that emit directly to {@code component}. */
    public List<String> upstreamOf(String component) {
        return Collections.unmodifiableList(require(upstream, component));
    }

    /** Components that consume directly from {@code component}. */
    public List<String> downstreamOf(String component) {
        return Collections.unmodifiableList(require(downstream, component));
    }

    /** A linearisation φ: every component appears after all of its upstream components. */
    public List<String> topologicalOrder() {
        return topologicalOrder;
    }

    /**
     * Breadth-first order from the sources (components without input, in declaration order), then in
     * discovery order along the edges; a component is visited only after all its inputs, so the order is
     * also topological. Used by the mappings of the model-driven paper ("BFS / topological order").
     */
    public List<String> breadthFirstOrder() {
        List<String> order = new ArrayList<>();
        Set<String> visited = new HashSet<>();
        Deque<String> queue = new ArrayDeque<>();
        for (String c : components) {
            if (upstream.get(c).isEmpty()) {
                queue.add(c);
                visited.add(c);
            }
        }
        while (!queue.isEmpty()) {
            String c = queue.poll();
            order.add(c);
            for (String d : downstream.get(c)) {
                // Only enqueue once every input is placed, so the result is still topological.
                if (!visited.contains(d) && order.containsAll(upstream.get(d))) {
                    visited.add(d);
                    queue.add(d);
                }
            }
        }
        return Collections.unmodifiableList(order);
    }

    private static List<String> require(Map<String, List<String>> map, String component) {
        List<String> list = map.get(component);
        if (list == null) {
            throw new IllegalArgumentException("unknown component " + component);
        }
        return list;
    }

    @Override
    public String toString() {
        return "ComponentGraph" + components + edges;
    }
}
