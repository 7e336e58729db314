package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.otd.Otd;
import io.nonstopstorm.scheduling.otd.OtdDecision;
import io.nonstopstorm.scheduling.otd.OtdPins;
import io.nonstopstorm.scheduling.otd.OtdSnapshot;
import io.nonstopstorm.scheduling.otd.WorkerLoad;
import io.nonstopstorm.scheduling.otd.WorkerShare;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One OTD round on the offline model: the topology's current placement becomes OTD's snapshot (a worker
 * per used slot, named {@code node:port}; executors named by their Storm id {@code [s,e]}), OTD picks at
 * most one move, and the move is applied to the placement.
 *
 * <p>A worker's CPU share is {@link WorkerShare}'s, from its measured load (else its executors' load) in the
 * room its node leaves the topology ({@code cpu_capacity − cpu_background}); 0 on a node without a finite
 * capacity. Queues default to 0.
 */
public final class OtdRound {

    /** The round's decision and the placement after it (unchanged unless the decision is a move). */
    public record Result(OtdDecision decision, Placement placement) {
    }

    private OtdRound() {
    }

    public static Outcome<Result> run(TopologyWorkload w, ClusterModel cluster, SchedulerParams.Otd params) {
        Placement current = w.current();
        List<ExecutorId> missing = w.topology().executorIds().stream().filter(e -> !current.isPlaced(e)).toList();
        if (!missing.isEmpty()) {
            return Outcome.failure("otd moves executors of a running topology: give its current_placement with every "
                    + "executor placed (" + missing.size() + " missing, e.g. " + missing.get(0) + ")");
        }
        Map<String, SlotId> slotOfWorker = new HashMap<>();
        Map<String, Double> shares = cpuShares(w, cluster);
        List<WorkerLoad> workers = new ArrayList<>();
        for (SlotId slot : current.executorsBySlot().keySet()) {
            slotOfWorker.put(slot.toString(), slot);
            WorkerReading reading = w.workerReadings().get(slot);
            workers.add(new WorkerLoad(slot.toString(), slot.nodeId(), shares.getOrDefault(slot.toString(), 0.0),
                    reading != null ? reading.queue() : 0));
        }
        Map<String, ExecutorId> executorByName = new HashMap<>();
        Map<String, String> executorToWorker = new TreeMap<>();
        for (Map.Entry<ExecutorId, SlotId> e : current.asMap().entrySet()) {
            executorByName.put(e.getKey().toString(), e.getKey());
            executorToWorker.put(e.getKey().toString(), e.getValue().toString());
        }
        Map<OtdSnapshot.Pair, Double> traffic = new HashMap<>();
        for (Map.Entry<TrafficMatrix.Flow, Double> f : w.traffic().flows().entrySet()) {
            traffic.put(new OtdSnapshot.Pair(f.getKey().from().toString(), f.getKey().to().toString()), f.getValue());
        }
        OtdDecision decision = Otd.decide(new OtdSnapshot(workers, executorToWorker, traffic), params.thresholds(),
                OtdPins.withSources(params.pinned(), w.topology()));
        Placement after = current;
        if (decision instanceof OtdDecision.Move move) {
            Map<ExecutorId, SlotId> slots = new HashMap<>(current.asMap());
            slots.put(executorByName.get(move.executor()), slotOfWorker.get(move.toWorker()));
            after = Placement.of(slots);
        }
        return Outcome.success(new Result(decision, after));
    }

    /**
     * Every worker's share ({@link WorkerShare}): its measured load, or without one its executors' CPU, in
     * the room its node leaves the topology ({@code cpu_capacity − cpu_background}, the background derived
     * from a measured {@code cpu_busy} by the input reader); none on a node of unbounded capacity.
     */
    public static Map<String, Double> cpuShares(TopologyWorkload w, ClusterModel cluster) {
        Map<String, String> nodeOfWorker = new TreeMap<>();
        Map<String, Double> loads = new TreeMap<>();
        Map<String, Double> room = new TreeMap<>();
        w.current().executorsBySlot().forEach((slot, executors) -> {
            nodeOfWorker.put(slot.toString(), slot.nodeId());
            WorkerReading reading = w.workerReadings().get(slot);
            loads.put(slot.toString(), reading != null ? reading.load() : w.loads().sum(executors));
            Node node = cluster.node(slot.nodeId()).orElseThrow();
            room.put(slot.nodeId(), node.cpuCapacity() - node.cpuBackground());
        });
        return WorkerShare.fromRoom(nodeOfWorker, loads, room);
    }

    /** The decision in one line for a report. */
    public static String describe(OtdDecision d) {
        if (d instanceof OtdDecision.Move m) {
            return String.format("otd case %d: move %s from %s to %s (ASC %.1f tuples/s): %s", m.paperCase(),
                    m.executor(), m.fromWorker(), m.toWorker(), m.asc(), m.reason());
        }
        return "otd case " + d.paperCase() + ": no move: " + d.reason();
    }
}
