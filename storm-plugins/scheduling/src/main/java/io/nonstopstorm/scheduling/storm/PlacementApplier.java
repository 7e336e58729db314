package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.wire.ExecutorId;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.ExecutorDetails;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a target placement into Storm's {@link Cluster} touching only the slots whose executor set
 * changes. Storm has no single-executor unassign and {@code assign} refuses occupied slots or assigned
 * executors, so each changed slot of the topology is freed and every changed target slot assigned whole;
 * unchanged workers keep running.
 */
public final class PlacementApplier {

    private PlacementApplier() {
    }

    /**
     * @return the number of slots freed or assigned (0 when the target equals the current assignment)
     * @throws IllegalStateException if the target names an executor the topology lacks or a slot held by
     *                               another topology; the cluster is then untouched
     */
    public static int apply(Cluster cluster, TopologyDetails td, Placement target) {
        String id = td.getId();
        Set<ExecutorDetails> known = td.getExecutors();
        Map<WorkerSlot, Set<ExecutorDetails>> wanted = new HashMap<>();
        for (Map.Entry<SlotId, List<ExecutorId>> e : target.executorsBySlot().entrySet()) {
            Set<ExecutorDetails> set = new HashSet<>();
            for (ExecutorId x : e.getValue()) {
                ExecutorDetails d = StormModelMapper.details(x);
                if (!known.contains(d)) {
                    throw new IllegalStateException("target places executor " + x + " that topology " + id + " does not have");
                }
                set.add(d);
            }
            wanted.put(StormModelMapper.workerSlot(e.getKey()), set);
        }
        Map<WorkerSlot, Set<ExecutorDetails>> current = new HashMap<>();
        SchedulerAssignment assignment = cluster.getAssignmentById(id);
        if (assignment != null) {
            for (Map.Entry<WorkerSlot, Collection<ExecutorDetails>> e : assignment.getSlotToExecutors().entrySet()) {
                current.put(e.getKey(), new HashSet<>(e.getValue()));
            }
        }
        for (WorkerSlot s : wanted.keySet()) {
            if (!current.containsKey(s) && cluster.isSlotOccupied(s)) {
                throw new IllegalStateException("target uses slot " + s + " held by another topology");
            }
            if (cluster.getSupervisorById(s.getNodeId()) == null) {
                throw new IllegalStateException("target uses slot " + s + " on an unknown supervisor");
            }
        }
        Set<WorkerSlot> changed = new TreeSet<>((a, b) -> a.getId().compareTo(b.getId()));
        for (WorkerSlot s : current.keySet()) {
            if (!current.get(s).equals(wanted.get(s))) {
                changed.add(s);
            }
        }
        for (WorkerSlot s : wanted.keySet()) {
            if (!wanted.get(s).equals(current.get(s))) {
                changed.add(s);
            }
        }
        for (WorkerSlot s : changed) {
            if (current.containsKey(s)) {
                cluster.freeSlot(s);
            }
        }
        for (WorkerSlot s : changed) {
            if (wanted.containsKey(s)) {
                cluster.assign(s, id, wanted.get(s));
            }
        }
        return changed.size();
    }
}
