package io.nonstopstorm.scheduling.otd;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Online Task Deployment (seed 000, section 4): one round classifies the workers and picks at most
 * one executor migration. Pure: the same snapshot and parameters always give the same decision.
 *
 * <p>Readings of the paper where it is silent, chosen for stability of a live system:
 * <ul>
 *   <li>"Most/least loaded" orders workers by CPU, then queue length, then id (a total, deterministic order).</li>
 *   <li>A move never takes a worker's last executor (the topology keeps every worker busy) unless
 *       {@link OtdParams#mayTakeLastExecutor}, and never targets a full worker
 *       ({@link OtdParams#maxExecutorsPerWorker}) or a non-LOW worker.</li>
 *   <li>Algorithm 1 may relieve a worker inside its own node only if {@link OtdParams#relieveWithinNode}.</li>
 *   <li>Algorithm 2 loops over all LOW workers, as its pseudo-code does (it computes min_load_workers
 *       and does not use them).</li>
 *   <li>Executors in {@code pinned} (e.g. moved recently: the controller's hysteresis) are not candidates.</li>
 * </ul>
 */
public final class Otd {
    /** Less loaded first; equal loads by id, so the smallest id wins ties. */
    private static final Comparator<WorkerLoad> LEAST_LOADED_FIRST =
        Comparator.comparingDouble(WorkerLoad::cpu).thenComparingLong(WorkerLoad::queue)
            .thenComparing(WorkerLoad::worker);
    /** More loaded first; equal loads by id, so the smallest id wins ties here too. */
    private static final Comparator<WorkerLoad> MOST_LOADED_FIRST =
        Comparator.comparingDouble(WorkerLoad::cpu).thenComparingLong(WorkerLoad::queue).reversed()
            .thenComparing(WorkerLoad::worker);

    private Otd() {
    }

    public static OtdDecision decide(OtdSnapshot s, OtdParams p, Set<String> pinned) {
        List<WorkerLoad> high = new ArrayList<>();
        List<WorkerLoad> low = new ArrayList<>();
        for (WorkerLoad w : s.workers()) {
            switch (LoadClass.of(w, p)) {
                case HIGH -> high.add(w);
                case LOW -> low.add(w);
                default -> { }
            }
        }
        if (!high.isEmpty() && low.isEmpty()) {
            List<String> ids = high.stream().map(WorkerLoad::worker).sorted().toList();
            return new OtdDecision.LackingResources(ids, "workers " + ids + " are overloaded and none has room");
        }
        if (high.isEmpty() && low.isEmpty()) {
            return new OtdDecision.NoAction(4, "no worker is over- or under-loaded");
        }
        AllocationScore score = new AllocationScore(s);
        Map<String, Integer> counts = s.executorCounts();
        if (!high.isEmpty()) {
            return loadBalancing(s, p, pinned, high, low, score, counts);
        }
        return communicationOptimisation(s, p, pinned, low, score, counts);
    }

    /** Algorithm 1: best-ASC move off the most loaded worker to the least loaded LOW worker of some node (another
     *  node than the worker's own unless {@link OtdParams#relieveWithinNode}). */
    private static OtdDecision loadBalancing(OtdSnapshot s, OtdParams p, Set<String> pinned, List<WorkerLoad> high,
                                             List<WorkerLoad> low, AllocationScore score, Map<String, Integer> counts) {
        WorkerLoad source = high.stream().min(MOST_LOADED_FIRST).orElseThrow();
        Map<String, WorkerLoad> leastLoadedPerNode = new TreeMap<>();
        for (WorkerLoad w : low) {
            if (isFull(w, p, counts) || (!p.relieveWithinNode() && w.node().equals(source.node()))) {
                continue;
            }
            leastLoadedPerNode.merge(w.node(), w, (a, b) -> LEAST_LOADED_FIRST.compare(a, b) <= 0 ? a : b);
        }
        List<String> executors = executorsOf(s, source.worker(), pinned);
        if (!mayLeave(source.worker(), p, counts) || executors.isEmpty() || leastLoadedPerNode.isEmpty()) {
            return new OtdDecision.NoAction(1, "overloaded worker " + source.worker() + " "
                + noReliefReason(source, p, counts, executors.isEmpty()));
        }
        Candidate best = best(executors, List.copyOf(leastLoadedPerNode.values()), score, s);
        return new OtdDecision.Move(1, best.executor, source.worker(), best.target.worker(), best.asc,
            String.format("worker %s is overloaded (cpu %.2f, queue %d); %s moves to the least-loaded worker %s "
                    + "(cpu %.2f), best allocation-score change %.1f tuples/s",
                source.worker(), source.cpu(), source.queue(), best.executor, best.target.worker(),
                best.target.cpu(), best.asc));
    }

    /** Algorithm 2: the best-ASC move of any executor to any LOW worker, only if it beats the threshold. */
    private static OtdDecision communicationOptimisation(OtdSnapshot s, OtdParams p, Set<String> pinned,
                                                         List<WorkerLoad> low, AllocationScore score,
                                                         Map<String, Integer> counts) {
        List<WorkerLoad> targets = low.stream().filter(w -> !isFull(w, p, counts)).toList();
        List<String> executors = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(s.executorToWorker()).entrySet()) {
            if (!pinned.contains(e.getKey()) && mayLeave(e.getValue(), p, counts)) {
                executors.add(e.getKey());
            }
        }
        if (targets.isEmpty() || executors.isEmpty()) {
            return new OtdDecision.NoAction(3, "no movable executor or no LOW worker with room");
        }
        Candidate best = best(executors, targets, score, s);
        if (best == null || !(best.asc > p.thresholdAsc())) {
            return new OtdDecision.NoAction(3, String.format("best allocation-score change %.1f tuples/s does not "
                + "exceed threshold %.1f", best == null ? 0.0 : best.asc, p.thresholdAsc()));
        }
        return new OtdDecision.Move(3, best.executor, s.executorToWorker().get(best.executor), best.target.worker(),
            best.asc, String.format("moving %s to %s cuts inter-node traffic by %.1f tuples/s (threshold %.1f)",
                best.executor, best.target.worker(), best.asc, p.thresholdAsc()));
    }

    private record Candidate(String executor, WorkerLoad target, double asc) {
    }

    /** argmax ASC; ties go to the less loaded target, then the smaller executor id, then worker id. */
    private static Candidate best(List<String> executors, List<WorkerLoad> targets, AllocationScore score,
                                  OtdSnapshot s) {
        Candidate best = null;
        for (String e : executors) {
            String from = s.executorToWorker().get(e);
            for (WorkerLoad t : targets) {
                if (t.worker().equals(from)) {
                    continue;
                }
                Candidate c = new Candidate(e, t, score.asc(e, t.node()));
                if (best == null || better(c, best)) {
                    best = c;
                }
            }
        }
        return best;
    }

    private static boolean better(Candidate a, Candidate b) {
        if (a.asc != b.asc) {
            return a.asc > b.asc;
        }
        int load = Comparator.comparingDouble(WorkerLoad::cpu).thenComparingLong(WorkerLoad::queue)
            .compare(a.target, b.target);
        if (load != 0) {
            return load < 0;
        }
        int ex = a.executor.compareTo(b.executor);
        return ex != 0 ? ex < 0 : a.target.worker().compareTo(b.target.worker()) < 0;
    }

    /** Which of Algorithm 1's preconditions failed, first one first: the decision log says exactly why. */
    private static String noReliefReason(WorkerLoad source, OtdParams p, Map<String, Integer> counts,
                                         boolean noExecutor) {
        if (!mayLeave(source.worker(), p, counts)) {
            return "holds its last executor";
        }
        if (noExecutor) {
            return "has no movable executor (none, or all pinned)";
        }
        return p.relieveWithinNode() ? "has no LOW worker with room to move to"
            : "has no LOW worker with room on another node to move to";
    }

    private static boolean isFull(WorkerLoad w, OtdParams p, Map<String, Integer> counts) {
        return p.maxExecutorsPerWorker() > 0 && counts.get(w.worker()) >= p.maxExecutorsPerWorker();
    }

    /** Whether an executor may move off {@code worker}: not its last one, unless the parameters allow that. */
    private static boolean mayLeave(String worker, OtdParams p, Map<String, Integer> counts) {
        return p.mayTakeLastExecutor() || counts.get(worker) > 1;
    }

    private static List<String> executorsOf(OtdSnapshot s, String worker, Set<String> pinned) {
        return new TreeMap<>(s.executorToWorker()).entrySet().stream()
            .filter(e -> e.getValue().equals(worker) && !pinned.contains(e.getKey()))
            .map(Map.Entry::getKey).toList();
    }
}
