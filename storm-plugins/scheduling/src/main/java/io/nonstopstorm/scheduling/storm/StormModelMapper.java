package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Edge;
import io.nonstopstorm.scheduling.model.Executor;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/** Maps Storm's scheduler objects onto the placement model and back. */
public final class StormModelMapper {

    private StormModelMapper() {
    }

    /**
     * The topology's component DAG (spouts, then bolts, each sorted by name, then system components such
     * as {@code __acker} that only appear among the executors), edges from the bolts' declared inputs,
     * executors sorted by component order and task.
     *
     * @throws IllegalArgumentException if the component graph has a cycle
     */
    public static TopologyModel topology(TopologyDetails td) {
        Map<ExecutorDetails, String> executorToComponent = td.getExecutorToComponent();
        Set<String> components = new LinkedHashSet<>();
        List<Edge> edges = new ArrayList<>();
        StormTopology st = td.getTopology();
        if (st != null) {
            components.addAll(new TreeSet<>(st.get_spouts().keySet()));
            components.addAll(new TreeSet<>(st.get_bolts().keySet()));
            for (Map.Entry<String, Bolt> bolt : new TreeMap<>(st.get_bolts()).entrySet()) {
                for (GlobalStreamId input : bolt.getValue().get_common().get_inputs().keySet()) {
                    Edge edge = new Edge(input.get_componentId(), bolt.getKey());
                    if (!edge.from().equals(edge.to()) && components.contains(edge.from()) && !edges.contains(edge)) {
                        edges.add(edge);
                    }
                }
            }
        }
        components.addAll(new TreeSet<>(executorToComponent.values()));
        List<String> order = new ArrayList<>(components);
        Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            rank.put(order.get(i), i);
        }
        List<Executor> executors = new ArrayList<>();
        for (Map.Entry<ExecutorDetails, String> e : executorToComponent.entrySet()) {
            executors.add(new Executor(id(e.getKey()), e.getValue()));
        }
        executors.sort(Comparator.comparingInt((Executor e) -> rank.get(e.component())).thenComparing(Executor::id));
        return new TopologyModel(td.getId(), new ComponentGraph(order, edges), executors, Math.max(1, td.getNumWorkers()));
    }

    /**
     * Supervisors sorted by id, each with its assignable ports in ascending order and the CPU capacity
     * {@code capacityOf} gives it; every occupied slot is marked with its topology.
     */
    public static ClusterModel cluster(Cluster cluster, Function<SupervisorDetails, Double> capacityOf,
                                       Function<String, Double> backgroundOf) {
        List<Node> nodes = new ArrayList<>();
        for (SupervisorDetails sup : new TreeMap<>(cluster.getSupervisors()).values()) {
            List<Integer> ports = new ArrayList<>(new TreeSet<>(
                    cluster.getAssignableSlots(sup).stream().map(WorkerSlot::getPort).toList()));
            nodes.add(new Node(sup.getId(), ports, capacityOf.apply(sup), Double.POSITIVE_INFINITY,
                    backgroundOf.apply(sup.getId()), 0));
        }
        ClusterModel bare = ClusterModel.of(nodes);
        Map<SlotId, String> owners = new TreeMap<>();
        for (SchedulerAssignment a : cluster.getAssignments().values()) {
            for (WorkerSlot ws : a.getSlots()) {
                SlotId s = slot(ws);
                if (bare.hasSlot(s)) {
                    owners.put(s, a.getTopologyId());
                }
            }
        }
        return new ClusterModel(nodes, owners);
    }

    /** The topology's current placement (empty if it has none). */
    public static Placement placement(Cluster cluster, String topologyId) {
        SchedulerAssignment a = cluster.getAssignmentById(topologyId);
        if (a == null) {
            return Placement.empty();
        }
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        for (Map.Entry<ExecutorDetails, WorkerSlot> e : a.getExecutorToSlot().entrySet()) {
            slotOf.put(id(e.getKey()), slot(e.getValue()));
        }
        return Placement.of(slotOf);
    }

    public static ExecutorId id(ExecutorDetails e) {
        return new ExecutorId(e.getStartTask(), e.getEndTask());
    }

    public static ExecutorDetails details(ExecutorId e) {
        return new ExecutorDetails(e.start(), e.end());
    }

    public static SlotId slot(WorkerSlot ws) {
        return new SlotId(ws.getNodeId(), ws.getPort());
    }

    public static WorkerSlot workerSlot(SlotId s) {
        return new WorkerSlot(s.nodeId(), s.port());
    }
}
