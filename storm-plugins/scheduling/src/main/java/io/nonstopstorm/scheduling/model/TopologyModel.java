package io.nonstopstorm.scheduling.model;

import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One topology: its component DAG, its executors (in a stable order, grouped by component as the
 * caller lists them) and the number of workers it asked for.
 */
public final class TopologyModel {

    private final String id;
    private final ComponentGraph graph;
    private final List<Executor> executors;
    private final int numWorkers;
    private final Map<String, List<ExecutorId>> executorsByComponent = new LinkedHashMap<>();
    private final Map<ExecutorId, String> componentOf = new LinkedHashMap<>();

    /**
     * @throws IllegalArgumentException if an executor is listed twice, names a component that is not in
     *                                  the graph, or {@code numWorkers < 1}
     */
    public TopologyModel(String id, ComponentGraph graph, List<Executor> executors, int numWorkers) {
        this.id = Objects.requireNonNull(id, "id");
        this.graph = Objects.requireNonNull(graph, "graph");
        this.executors = List.copyOf(executors);
        if (numWorkers < 1) {
            throw new IllegalArgumentException("topology " + id + ": numWorkers must be >= 1, got " + numWorkers);
        }
        this.numWorkers = numWorkers;
        for (String c : graph.components()) {
            executorsByComponent.put(c, new ArrayList<>());
        }
        for (Executor e : this.executors) {
            if (!graph.contains(e.component())) {
                throw new IllegalArgumentException("topology " + id + ": executor " + e.id()
                        + " belongs to unknown component " + e.component());
            }
            if (componentOf.put(e.id(), e.component()) != null) {
                throw new IllegalArgumentException("topology " + id + ": executor " + e.id() + " listed twice");
            }
            executorsByComponent.get(e.component()).add(e.id());
        }
    }

    /**
     * Builds a topology whose components have the given executor counts, one task per executor,
     * task ids numbered consecutively from 1 in component declaration order.
     */
    public static TopologyModel withParallelism(String id, ComponentGraph graph, Map<String, Integer> parallelism,
                                                int numWorkers) {
        List<Executor> executors = new ArrayList<>();
        int task = 1;
        for (String c : graph.components()) {
            int n = parallelism.getOrDefault(c, 0);
            for (int i = 0; i < n; i++) {
                executors.add(new Executor(ExecutorId.single(task++), c));
            }
        }
        return new TopologyModel(id, graph, executors, numWorkers);
    }

    public String id() {
        return id;
    }

    public ComponentGraph graph() {
        return graph;
    }

    public List<Executor> executors() {
        return executors;
    }

    public List<ExecutorId> executorIds() {
        return executors.stream().map(Executor::id).toList();
    }

    public Set<ExecutorId> executorIdSet() {
        return Collections.unmodifiableSet(new HashSet<>(componentOf.keySet()));
    }

    public boolean hasExecutor(ExecutorId e) {
        return componentOf.containsKey(e);
    }

    public String componentOf(ExecutorId e) {
        String c = componentOf.get(e);
        if (c == null) {
            throw new IllegalArgumentException("topology " + id + " has no executor " + e);
        }
        return c;
    }

    /** Executors of a component, in listing order. */
    public List<ExecutorId> executorsOf(String component) {
        List<ExecutorId> list = executorsByComponent.get(component);
        if (list == null) {
            throw new IllegalArgumentException("topology " + id + " has no component " + component);
        }
        return Collections.unmodifiableList(list);
    }

    /** Workers the topology asked for (W). */
    /** Executors of the source components (no upstream: Storm's spouts), in id order. */
    public List<ExecutorId> sourceExecutors() {
        return graph.components().stream().filter(c -> graph.upstreamOf(c).isEmpty())
            .flatMap(c -> executorsOf(c).stream()).sorted().toList();
    }

    public int numWorkers() {
        return numWorkers;
    }

    /** Workers it can actually use: {@code min(W, E)} (Aniello et al. §3). */
    public int effectiveWorkers() {
        return Math.min(numWorkers, executors.size());
    }

    @Override
    public String toString() {
        return "Topology[" + id + ", " + executors.size() + " executors, " + numWorkers + " workers]";
    }
}
