package io.nonstopstorm.scheduling.bench;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Edge;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.TopologyWorkload;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded synthetic scheduling instances for the benchmarks: a component DAG of a given shape, executor
 * CPU loads (100–1000, MHz-like), tuple rates along the DAG's edges with an uneven split over the
 * receivers (like a skewed fields grouping), and a uniform cluster whose node CPU is sized from the
 * total load so that capacity binds now and then. Same seed, same instance.
 */
public final class SyntheticInstances {

    /** DAG shapes: a pipeline, one source fanning out to parallel branches that join, or a random layered DAG. */
    public enum Dag { CHAIN, DIAMOND, RANDOM }

    /**
     * @param minParallelism  executors per component, drawn uniformly from [min, max]
     * @param fanout          downstream executors each executor sends to (0 = all of them, a shuffle)
     * @param workersPerNode  W = round(nodes × this), at least 1 and at most the executor count
     * @param headroom        total node CPU / total executor load (≥ 1; lower binds more often)
     */
    public record Shape(String name, Dag dag, int minComponents, int maxComponents, int minParallelism,
                        int maxParallelism, int nodes, int portsPerNode, int fanout, double workersPerNode,
                        double headroom) {
    }

    private SyntheticInstances() {
    }

    public static PlanningInput generate(Shape shape, long seed) {
        Random rnd = new Random(seed * 1_000_003L + shape.name().hashCode());
        int components = between(rnd, shape.minComponents(), shape.maxComponents());
        List<String> names = new ArrayList<>();
        for (int c = 0; c < components; c++) {
            names.add(c == 0 ? "spout" : "bolt" + c);
        }
        ComponentGraph graph = new ComponentGraph(names, edges(shape.dag(), names, rnd));
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (String c : names) {
            parallelism.put(c, between(rnd, shape.minParallelism(), shape.maxParallelism()));
        }
        int executors = parallelism.values().stream().mapToInt(Integer::intValue).sum();
        int workers = (int) Math.max(1, Math.min(executors, Math.round(shape.nodes() * shape.workersPerNode())));
        workers = Math.min(workers, shape.nodes() * shape.portsPerNode());
        TopologyModel topology = TopologyModel.withParallelism("synthetic-" + shape.name() + "-" + seed, graph,
                parallelism, workers);

        TrafficMatrix.Builder traffic = TrafficMatrix.builder();
        for (Edge e : graph.edges()) {
            double rate = 10 + rnd.nextInt(991);
            List<ExecutorId> receivers = topology.executorsOf(e.to());
            for (ExecutorId from : topology.executorsOf(e.from())) {
                List<ExecutorId> targets = pick(receivers, shape.fanout(), rnd);
                double[] share = new double[targets.size()];
                double sum = 0;
                for (int t = 0; t < share.length; t++) {
                    share[t] = 0.5 + rnd.nextDouble();
                    sum += share[t];
                }
                for (int t = 0; t < share.length; t++) {
                    traffic.add(from, targets.get(t), rate * share[t] / sum);
                }
            }
        }
        Map<ExecutorId, Double> load = new HashMap<>();
        double total = 0;
        double max = 0;
        for (ExecutorId e : topology.executorIds()) {
            double l = 100 + rnd.nextInt(901);
            load.put(e, l);
            total += l;
            max = Math.max(max, l);
        }
        double perNode = Math.max(1.2 * max, total * shape.headroom() / Math.min(workers, shape.nodes()));
        List<Node> nodes = new ArrayList<>();
        for (int n = 1; n <= shape.nodes(); n++) {
            List<Integer> ports = new ArrayList<>();
            for (int p = 0; p < shape.portsPerNode(); p++) {
                ports.add(6700 + p);
            }
            nodes.add(Node.of("n" + n, ports, perNode));
        }
        return PlanningInput.of(ClusterModel.of(nodes),
                List.of(TopologyWorkload.of(topology, traffic.build(), ExecutorLoads.of(load))));
    }

    private static List<Edge> edges(Dag dag, List<String> names, Random rnd) {
        List<Edge> edges = new ArrayList<>();
        int n = names.size();
        switch (dag) {
            case CHAIN -> {
                for (int c = 1; c < n; c++) {
                    edges.add(new Edge(names.get(c - 1), names.get(c)));
                }
            }
            case DIAMOND -> {
                if (n == 2) {
                    edges.add(new Edge(names.get(0), names.get(1)));
                }
                for (int c = 1; c < n - 1; c++) {
                    edges.add(new Edge(names.get(0), names.get(c)));
                    edges.add(new Edge(names.get(c), names.get(n - 1)));
                }
            }
            case RANDOM -> edges.addAll(randomEdges(names, rnd));
            default -> throw new IllegalStateException("unknown DAG shape " + dag);
        }
        return edges;
    }

    /** {@code count} distinct receivers at random (all of them when count is 0 or covers them). */
    /**
     * A random connected DAG over {@code names} in order (the first is the only source): each component
     * gets an input from an earlier one, and from the third on a second input one time in four.
     */
    public static List<Edge> randomEdges(List<String> names, Random rnd) {
        List<Edge> edges = new ArrayList<>();
        for (int c = 1; c < names.size(); c++) {
            edges.add(new Edge(names.get(rnd.nextInt(c)), names.get(c)));
            if (c >= 2 && rnd.nextInt(4) == 0) {
                Edge extra = new Edge(names.get(rnd.nextInt(c)), names.get(c));
                if (!edges.contains(extra)) {
                    edges.add(extra);
                }
            }
        }
        return edges;
    }

    private static List<ExecutorId> pick(List<ExecutorId> receivers, int count, Random rnd) {
        if (count <= 0 || count >= receivers.size()) {
            return receivers;
        }
        List<ExecutorId> pool = new ArrayList<>(receivers);
        List<ExecutorId> chosen = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            chosen.add(pool.remove(rnd.nextInt(pool.size())));
        }
        return chosen;
    }

    private static int between(Random rnd, int min, int max) {
        return min + rnd.nextInt(max - min + 1);
    }
}
