package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.metricsplane.WorkerDocument;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.otd.OtdDecision;
import io.nonstopstorm.scheduling.otd.OtdSnapshot;
import io.nonstopstorm.scheduling.otd.WorkerLoad;
import io.nonstopstorm.scheduling.otd.WorkerShare;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.TopologyDetails;

/**
 * Maps a running topology and its metrics-plane documents onto OTD's snapshot: one worker per used
 * slot, named {@code host:port}, on its supervisor; the topology's user executors (Storm's own, such as
 * {@code __acker}, are never moved and carry no measured traffic), named {@code [s,e]}; per-pair tuples/s.
 *
 * <p>A worker's CPU is its load (JVM plus its executors' child processes, cores) as a share of its even
 * part of the CPU its node leaves the topology, never below the node's use of it ({@link WorkerShare}, from the node's
 * {@code cpu_count} and, when {@code countBackground}, its {@code cpu_busy_cores}). Its queue is the summed receive-queue length of its executors.
 *
 * <p>The measurements must describe the placement OTD would change, so a round is refused (with the
 * reason) unless every worker has a fresh document that
 * <ul>
 *   <li>is not its first window (that one covers the JVM's start-up, not the topology's load);</li>
 *   <li>began after the last move OTD made, and lists exactly the user executors Storm assigns to the
 *       worker (an executor that is still moving is listed by both workers, or by neither);</li>
 *   <li>has a CPU figure, and is newer than the one the previous round used (no decision twice on the
 *       same data).</li>
 * </ul>
 */
final class OtdMeasurements {

    private static final int PROBLEMS_SHOWN = 3;

    private OtdMeasurements() {
    }

    /**
     * One round's input: OTD's snapshot and the way back to Storm's names.
     *
     * @param windowEnds per worker, the end of the window its figures come from
     * @param loadCores  per worker, its measured load in cores
     */
    record Input(OtdSnapshot snapshot, Placement current, Map<String, SlotId> slotOfWorker,
                 Map<String, ExecutorId> executorByName, Map<String, Long> windowEnds, Map<String, Double> loadCores) {

        /** The current placement with the move applied: only the two workers involved change. */
        Placement after(OtdDecision.Move move) {
            Map<ExecutorId, SlotId> slots = new HashMap<>(current.asMap());
            slots.put(executorByName.get(move.executor()), slotOfWorker.get(move.toWorker()));
            return Placement.of(slots);
        }
    }

    /**
     * @param lastMoveMs  when OTD last moved an executor of this topology (Long.MIN_VALUE: never)
     * @param usedWindows per worker, the window end the previous round used (empty: none ran yet)
     */
    static Outcome<Input> read(TopologyDetails td, Cluster cluster, SchedulingMetrics metrics, boolean countBackground,
                               long lastMoveMs, Map<String, Long> usedWindows) {
        String id = td.getId();
        Placement current = StormModelMapper.placement(cluster, id);
        if (current.isEmpty()) {
            return Outcome.failure("the topology has no placement");
        }
        Map<String, WorkerDocument> docs = metrics.workerDocuments(id);
        List<String> problems = new ArrayList<>();
        Map<String, SlotId> slotOfWorker = new TreeMap<>();
        Map<String, ExecutorId> executorByName = new TreeMap<>();
        Map<String, String> executorToWorker = new TreeMap<>();
        Map<String, WorkerDocument> docOf = new TreeMap<>();
        List<String> notNew = new ArrayList<>();
        for (Map.Entry<SlotId, List<ExecutorId>> e : current.executorsBySlot().entrySet()) {
            SlotId slot = e.getKey();
            SupervisorDetails sup = cluster.getSupervisorById(slot.nodeId());
            String host = sup == null || sup.getHost() == null ? slot.nodeId() : sup.getHost();
            String worker = host + ":" + slot.port();
            slotOfWorker.put(worker, slot);
            Set<ExecutorId> user = new TreeSet<>();
            for (ExecutorId x : e.getValue()) {
                String component = td.getExecutorToComponent().get(StormModelMapper.details(x));
                if (component != null && !component.startsWith("__")) {
                    user.add(x);
                    executorByName.put(x.toString(), x);
                    executorToWorker.put(x.toString(), worker);
                }
            }
            WorkerDocument doc = docs.get(worker);
            String problem = problem(worker, doc, user, lastMoveMs,
                    () -> metrics.refusedDocument(id, host, slot.port()).orElse(null));
            if (problem != null) {
                problems.add(problem);
                continue;
            }
            docOf.put(worker, doc);
            Long used = usedWindows.get(worker);
            if (used != null && doc.windowEndMs() <= used) {
                notNew.add(worker);
            }
        }
        if (!problems.isEmpty()) {
            String shown = String.join("; ", problems.subList(0, Math.min(PROBLEMS_SHOWN, problems.size())));
            return Outcome.failure(problems.size() > PROBLEMS_SHOWN
                    ? shown + "; and " + (problems.size() - PROBLEMS_SHOWN) + " more" : shown);
        }
        if (!notNew.isEmpty()) {
            return Outcome.failure("no new measurements since the last round from worker(s) " + notNew);
        }
        Map<String, Double> loads = new TreeMap<>();
        docOf.forEach((w, d) -> loads.put(w, d.loadCores().orElseThrow()));
        List<WorkerLoad> workers = workerLoads(docOf, slotOfWorker, loads, countBackground);
        Map<OtdSnapshot.Pair, Double> traffic = new HashMap<>();
        TrafficMatrix matrix = metrics.traffic(id).orElse(TrafficMatrix.empty());
        matrix.flows().forEach((flow, rate) -> {
            String from = flow.from().toString();
            String to = flow.to().toString();
            if (executorToWorker.containsKey(from) && executorToWorker.containsKey(to) && rate > 0) {
                traffic.put(new OtdSnapshot.Pair(from, to), rate);
            }
        });
        Map<String, Long> windowEnds = new TreeMap<>();
        docOf.forEach((w, d) -> windowEnds.put(w, d.windowEndMs()));
        return Outcome.success(new Input(new OtdSnapshot(workers, executorToWorker, traffic), current, slotOfWorker,
                executorByName, windowEnds, loads));
    }

    /** Why this worker's document cannot be used this round, or null if it can. */
    private static String problem(String worker, WorkerDocument doc, Set<ExecutorId> user, long lastMoveMs,
                                  Supplier<String> refusedReason) {
        if (doc == null) {
            String refused = refusedReason.get();
            return "no fresh metrics from worker " + worker + " ("
                   + (refused != null ? refused : "none published: starting, or the metrics hook is off") + ")";
        }
        if (doc.windowSeq() < 2) {
            return "worker " + worker + " has published only its start-up window";
        }
        if (doc.windowStartMs() < lastMoveMs) {
            return "worker " + worker + "'s latest window began before the last move";
        }
        Set<ExecutorId> listed = new HashSet<>();
        doc.executors().forEach(x -> listed.add(x.id()));
        if (!listed.equals(user)) {
            return "worker " + worker + "'s measurements list executors " + new TreeSet<>(listed)
                   + " but it is assigned " + user + " (a move still in progress?)";
        }
        if (doc.loadCores().isEmpty()) {
            return "worker " + worker + " reported no CPU figure";
        }
        return null;
    }

    private static List<WorkerLoad> workerLoads(Map<String, WorkerDocument> docOf, Map<String, SlotId> slotOfWorker,
                                                Map<String, Double> loads, boolean countBackground) {
        Map<String, String> nodeOfWorker = new TreeMap<>();
        slotOfWorker.forEach((w, s) -> nodeOfWorker.put(w, s.nodeId()));
        Map<String, WorkerShare.NodeCpu> nodes = new TreeMap<>();
        for (String node : new TreeSet<>(nodeOfWorker.values())) {
            // The node's newest document describes the node best.
            WorkerDocument newest = nodeOfWorker.entrySet().stream().filter(e -> e.getValue().equals(node))
                    .map(e -> docOf.get(e.getKey())).max(Comparator.comparingLong(WorkerDocument::windowEndMs))
                    .orElseThrow();
            nodes.put(node, new WorkerShare.NodeCpu(newest.node().cpuCount(),
                    countBackground ? newest.node().busyCores() : OptionalDouble.empty()));
        }
        Map<String, Double> shares = WorkerShare.fromMeasurements(nodeOfWorker, loads, nodes);
        List<WorkerLoad> out = new ArrayList<>();
        nodeOfWorker.forEach((w, node) ->
                out.add(new WorkerLoad(w, node, shares.getOrDefault(w, 0.0), docOf.get(w).queueLength())));
        return out;
    }
}
