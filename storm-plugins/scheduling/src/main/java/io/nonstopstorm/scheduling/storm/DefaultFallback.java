package io.nonstopstorm.scheduling.storm;

import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.DefaultScheduler;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs Storm's {@link DefaultScheduler} for some topologies only.
 *
 * <p>{@code DefaultScheduler.defaultSchedule} schedules every topology of the cluster it gets (it ignores
 * its {@code Topologies} argument), and Storm's {@code Cluster(Cluster, Topologies)} copy silently drops
 * the assignments of topologies outside the subset, so their slots would look free. We therefore build a
 * view with only these topologies and their assignments, on supervisors whose ports exclude every slot
 * held by anyone else, run the default there and copy the result back slot by slot.
 */
public final class DefaultFallback {

    private DefaultFallback() {
    }

    public static void schedule(Cluster cluster, Collection<TopologyDetails> topologies) {
        if (topologies.isEmpty()) {
            return;
        }
        Set<String> ids = new HashSet<>();
        topologies.forEach(td -> ids.add(td.getId()));
        Set<WorkerSlot> foreign = new HashSet<>();
        Map<String, SchedulerAssignment> own = new HashMap<>();
        for (SchedulerAssignment a : cluster.getAssignments().values()) {
            if (ids.contains(a.getTopologyId())) {
                own.put(a.getTopologyId(), a);
            } else {
                foreign.addAll(a.getSlots());
            }
        }
        Map<String, SupervisorDetails> supervisors = new HashMap<>();
        for (SupervisorDetails sup : cluster.getSupervisors().values()) {
            List<Integer> ports = new ArrayList<>();
            for (WorkerSlot ws : cluster.getAssignableSlots(sup)) {
                if (!foreign.contains(ws)) {
                    ports.add(ws.getPort());
                }
            }
            // The even scheduler only needs id, host and ports (getServerPort() would fail when unset).
            supervisors.put(sup.getId(), new SupervisorDetails(sup.getId(), sup.getHost(), sup.getMeta(), ports, Map.of()));
        }
        Topologies subset = new Topologies(topologies.toArray(new TopologyDetails[0]));
        Cluster view = new Cluster(cluster.getINimbus(), cluster.getResourceMetrics(), supervisors, own, subset,
                cluster.getConf());
        DefaultScheduler.defaultSchedule(subset, view);
        for (TopologyDetails td : topologies) {
            PlacementApplier.apply(cluster, td, StormModelMapper.placement(view, td.getId()));
        }
    }
}
