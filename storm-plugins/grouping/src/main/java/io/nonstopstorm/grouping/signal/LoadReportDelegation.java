package io.nonstopstorm.grouping.signal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The source side of delegation over published load reports, for one stream edge: turns the windows the
 * target workers reported into their load signals ({@link SlotDelegation}, which needs each deciding window
 * and the one before it from the same process) and hands them out in an order every source agrees on, so
 * that sources which read the same reports make the same VW moves.
 *
 * <p>Ordering: the signals of slot k are held back until slot k is complete, that is until every target
 * task has reported a window reaching the slot's start (so its decision for slot k is known) or until
 * {@code graceMs} after the slot's start (a dead or silent worker must not stall the others). A complete
 * slot's signals are released in worker order, slots in time order. A deciding window seen only after its
 * slot was released is handed out at once: late, and the one case in which sources may apply signals in
 * different orders (eventual consistency, as the paper allows).
 *
 * <p>Every window is decided once per task, however often it is read; a worker that reports the same slot
 * twice (e.g. a task moved to another process) still signals once per slot. A reader that missed the
 * window before a deciding one cannot know the utilisation and decides nothing for that slot. Pure: time
 * is passed in.
 */
public final class LoadReportDelegation {
    private final DelegationPolicy policy;
    private final List<Integer> targetTasks;
    private final Map<Integer, Integer> workerOfTask = new HashMap<>();
    private final long graceMs;
    private final Map<Integer, Long> decidedSlot = new HashMap<>();
    private final Map<TaskInstance, TaskLoad> lastWindow = new HashMap<>();
    private final Map<Integer, Long> reportedUntil = new HashMap<>();
    private final TreeMap<Long, TreeMap<Integer, LoadSignal>> pending = new TreeMap<>();
    private long releasedThrough = Long.MIN_VALUE;

    /** @param targetTasks the edge's target tasks, sorted ascending (worker index = position) */
    public LoadReportDelegation(DelegationPolicy policy, List<Integer> targetTasks, long graceMs) {
        if (graceMs < 0) {
            throw new IllegalArgumentException("grace must be >= 0 ms, got " + graceMs);
        }
        this.policy = policy;
        this.targetTasks = List.copyOf(targetTasks);
        for (int i = 0; i < this.targetTasks.size(); i++) {
            if (i > 0 && this.targetTasks.get(i) <= this.targetTasks.get(i - 1)) {
                throw new IllegalArgumentException("target tasks must be sorted and distinct, got " + targetTasks);
            }
            workerOfTask.put(this.targetTasks.get(i), i);
        }
        this.graceMs = graceMs;
    }

    /**
     * Takes the reports read in one poll (any tasks, any order, repeats allowed; tasks outside the edge are
     * ignored) and returns the signals released now, in the order sources must apply them.
     */
    public List<WorkerSignal> observe(Collection<TaskLoad> reports, long nowMs) {
        List<WorkerSignal> out = new ArrayList<>();
        List<TaskLoad> inOrder = new ArrayList<>(reports);
        inOrder.sort(Comparator.comparingLong(TaskLoad::seq)); // a process's windows oldest first
        for (TaskLoad report : inOrder) {
            Integer worker = workerOfTask.get(report.task());
            if (worker == null) {
                continue;
            }
            reportedUntil.merge(report.task(), report.windowEndMs(), Math::max);
            TaskInstance from = new TaskInstance(report.task(), report.instance());
            TaskLoad previous = lastWindow.get(from);
            if (previous != null && report.seq() <= previous.seq()) {
                continue; // read before
            }
            lastWindow.put(from, report);
            OptionalLong slot = SlotDelegation.decidingSlot(report, policy.timeSlot());
            if (slot.isEmpty() || decidedSlot.getOrDefault(report.task(), Long.MIN_VALUE) >= slot.getAsLong()) {
                continue;
            }
            decidedSlot.put(report.task(), slot.getAsLong());
            Optional<LoadSignal> signal = SlotDelegation.decide(policy, previous, report);
            if (signal.isEmpty()) {
                continue;
            }
            if (slot.getAsLong() <= releasedThrough) {
                out.add(new WorkerSignal(worker, signal.get()));
            } else {
                pending.computeIfAbsent(slot.getAsLong(), k -> new TreeMap<>()).put(worker, signal.get());
            }
        }
        while (!pending.isEmpty() && complete(pending.firstKey(), nowMs)) {
            Map.Entry<Long, TreeMap<Integer, LoadSignal>> slot = pending.pollFirstEntry();
            slot.getValue().forEach((worker, signal) -> out.add(new WorkerSignal(worker, signal)));
            releasedThrough = Math.max(releasedThrough, slot.getKey());
        }
        return out;
    }

    /** Signals decided but held back until their slot completes. */
    public int pendingSignals() {
        return pending.values().stream().mapToInt(Map::size).sum();
    }

    /** A task as reported by one process (a moved or restarted task reports from a new one). */
    private record TaskInstance(int task, long instance) {
    }

    private boolean complete(long slot, long nowMs) {
        long start = slot * policy.timeSlot();
        if (nowMs - start >= graceMs) {
            return true;
        }
        for (int task : targetTasks) {
            if (reportedUntil.getOrDefault(task, Long.MIN_VALUE) < start) {
                return false;
            }
        }
        return true;
    }
}
