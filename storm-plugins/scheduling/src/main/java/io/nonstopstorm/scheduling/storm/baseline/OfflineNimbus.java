package io.nonstopstorm.scheduling.storm.baseline;

import org.apache.storm.scheduler.INimbus;
import org.apache.storm.scheduler.IScheduler;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.WorkerSlot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The few {@link INimbus} calls a {@code Cluster} makes when no Nimbus runs: every port is schedulable. */
public final class OfflineNimbus implements INimbus {

    @Override
    public void prepare(Map<String, Object> conf, String schedulerLocalDir) {
    }

    @Override
    public Collection<WorkerSlot> allSlotsAvailableForScheduling(Collection<SupervisorDetails> supervisors,
                                                                 Topologies topologies,
                                                                 Set<String> topologiesMissingAssignments) {
        List<WorkerSlot> slots = new ArrayList<>();
        for (SupervisorDetails s : supervisors) {
            for (Number port : s.getAllPorts()) {
                slots.add(new WorkerSlot(s.getId(), port.intValue()));
            }
        }
        return slots;
    }

    @Override
    public void assignSlots(Topologies topologies, Map<String, Collection<WorkerSlot>> newSlotsByTopologyId) {
    }

    @Override
    public String getHostName(Map<String, SupervisorDetails> existingSupervisors, String nodeId) {
        SupervisorDetails s = existingSupervisors.get(nodeId);
        return s == null ? null : s.getHost();
    }

    @Override
    public IScheduler getForcedScheduler() {
        return null;
    }
}
