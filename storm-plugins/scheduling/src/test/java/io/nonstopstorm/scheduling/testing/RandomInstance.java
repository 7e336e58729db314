package io.nonstopstorm.scheduling.testing;

import io.nonstopstorm.scheduling.bench.SyntheticInstances;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Edge;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded random scheduling instance: a layered DAG (one spout, bolts fed by earlier components),
 * shuffle-like traffic along its edges with per-executor skew, executor CPU loads, and a cluster whose
 * node capacities are sized from the total load (so capacity sometimes binds) with some slots held by
 * another topology.
 */
public record RandomInstance(long seed, TopologyModel topology, ClusterModel cluster, TrafficMatrix traffic,
                             ExecutorLoads loads) {

    public record Shape(int minComponents, int maxComponents, int maxParallelism, int minNodes, int maxNodes,
                        int maxPorts, double capacityHeadroom) {
        /** Small enough for the exact optimum. */
        public static final Shape SMALL = new Shape(3, 5, 3, 2, 3, 3, 1.3);
        public static final Shape MEDIUM = new Shape(3, 8, 5, 2, 6, 4, 1.3);
    }

    public static RandomInstance generate(long seed, Shape shape) {
        Random rnd = new Random(seed);
        int components = shape.minComponents() + rnd.nextInt(shape.maxComponents() - shape.minComponents() + 1);
        List<String> names = new ArrayList<>();
        for (int c = 0; c < components; c++) {
            names.add(c == 0 ? "spout" : "bolt" + c);
        }
        List<Edge> edges = SyntheticInstances.randomEdges(names, rnd);
        ComponentGraph graph = new ComponentGraph(names, edges);
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (String c : names) {
            parallelism.put(c, 1 + rnd.nextInt(shape.maxParallelism()));
        }

        int nodeCount = shape.minNodes() + rnd.nextInt(shape.maxNodes() - shape.minNodes() + 1);
        List<Integer> portsPerNode = new ArrayList<>();
        int totalPorts = 0;
        for (int n = 0; n < nodeCount; n++) {
            int p = 1 + rnd.nextInt(shape.maxPorts());
            portsPerNode.add(p);
            totalPorts += p;
        }
        // A few slots belong to someone else, but never so many that the topology cannot run.
        Map<SlotId, String> owners = new HashMap<>();
        int executorsTotal = parallelism.values().stream().mapToInt(Integer::intValue).sum();
        int occupied = 0;
        for (int n = 0; n < nodeCount; n++) {
            if (portsPerNode.get(n) > 1 && rnd.nextInt(3) == 0 && totalPorts - occupied > 2) {
                owners.put(new SlotId("n" + (n + 1), 6700), "other-topology");
                occupied++;
            }
        }
        int usable = totalPorts - occupied;
        int workers = 1 + rnd.nextInt(Math.min(usable, executorsTotal));

        TopologyModel topology = TopologyModel.withParallelism("topo-" + seed, graph, parallelism, workers);
        TrafficMatrix.Builder traffic = TrafficMatrix.builder();
        for (Edge e : graph.edges()) {
            double rate = 10 + rnd.nextInt(991);
            for (ExecutorId from : topology.executorsOf(e.from())) {
                List<ExecutorId> targets = topology.executorsOf(e.to());
                double[] share = new double[targets.size()];
                double sum = 0;
                for (int t = 0; t < share.length; t++) {
                    share[t] = 0.5 + rnd.nextDouble(); // skew like an uneven fields grouping
                    sum += share[t];
                }
                for (int t = 0; t < share.length; t++) {
                    traffic.add(from, targets.get(t), rate * share[t] / sum);
                }
            }
        }
        Map<ExecutorId, Double> load = new HashMap<>();
        double totalLoad = 0;
        for (ExecutorId e : topology.executorIds()) {
            double l = 100 + rnd.nextInt(900); // MHz
            load.put(e, l);
            totalLoad += l;
        }
        // Size capacity so the topology fits on the nodes its workers can reach, with some headroom that
        // sometimes binds.
        double maxLoad = load.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        int reachableNodes = Math.min(topology.effectiveWorkers(), nodeCount);
        double headroom = shape.capacityHeadroom() * (0.8 + 0.5 * rnd.nextDouble());
        double perNode = Math.max(1.2 * maxLoad, totalLoad * headroom / reachableNodes);
        List<Node> nodes = new ArrayList<>();
        for (int n = 0; n < nodeCount; n++) {
            List<Integer> ports = new ArrayList<>();
            for (int p = 0; p < portsPerNode.get(n); p++) {
                ports.add(6700 + p);
            }
            double background = rnd.nextInt(4) == 0 ? 200 : 0;
            double capacity = background + perNode;
            nodes.add(new Node("n" + (n + 1), ports, capacity, Double.POSITIVE_INFINITY, background, 0));
        }
        return new RandomInstance(seed, topology, new ClusterModel(nodes, owners), traffic.build(), ExecutorLoads.of(load));
    }
}
