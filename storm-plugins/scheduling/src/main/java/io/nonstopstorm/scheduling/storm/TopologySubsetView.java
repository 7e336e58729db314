package io.nonstopstorm.scheduling.storm;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.WorkerResources;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SchedulerAssignment;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.WorkerSlot;
import org.apache.storm.scheduler.resource.normalization.NormalizedResourceOffer;
import org.apache.storm.scheduler.resource.normalization.NormalizedResourceRequest;

/**
 * A {@link Cluster} that holds only some topologies, for running one of Storm's own schedulers on them alone.
 *
 * <p>Storm's schedulers act on every topology of the cluster they get ({@code DefaultScheduler} and the
 * {@code ResourceAwareScheduler} read {@code cluster.getTopologies()}, not their {@code Topologies}
 * argument; the resource-aware one may even evict lower-priority topologies), and Storm's
 * {@code Cluster(Cluster, Topologies)} copy silently drops the assignments of topologies outside the
 * subset, so their slots and resources would look free. The view therefore has only these topologies and
 * their assignments, on supervisors whose ports exclude every slot another topology holds and whose
 * resources are the supervisor's total minus what the other topologies' workers were given there.
 * Blacklisted hosts stay blacklisted. Results are read back from {@link #cluster()}; the source cluster is
 * never changed.
 */
public record TopologySubsetView(Topologies topologies, Cluster cluster) {

    public static TopologySubsetView of(Cluster source, Collection<TopologyDetails> subset) {
        Set<String> ids = new HashSet<>();
        subset.forEach(td -> ids.add(td.getId()));
        Set<WorkerSlot> foreignSlots = new HashSet<>();
        Map<String, NormalizedResourceRequest> foreignUse = new HashMap<>();
        Map<String, SchedulerAssignment> own = new HashMap<>();
        for (SchedulerAssignment a : source.getAssignments().values()) {
            if (ids.contains(a.getTopologyId())) {
                own.put(a.getTopologyId(), a);
                continue;
            }
            foreignSlots.addAll(a.getSlots());
            for (Map.Entry<WorkerSlot, WorkerResources> e : a.getScheduledResources().entrySet()) {
                foreignUse.computeIfAbsent(e.getKey().getNodeId(), k -> new NormalizedResourceRequest()).add(e.getValue());
            }
            a.getNodeIdToTotalSharedOffHeapNodeMemory().forEach((node, mb) -> {
                if (mb != null && mb > 0) {
                    foreignUse.computeIfAbsent(node, k -> new NormalizedResourceRequest()).addOffHeap(mb);
                }
            });
        }
        Map<String, SupervisorDetails> supervisors = new HashMap<>();
        for (SupervisorDetails sup : source.getSupervisors().values()) {
            List<Integer> ports = new ArrayList<>();
            for (WorkerSlot ws : source.getAssignableSlots(sup)) {
                if (!foreignSlots.contains(ws)) {
                    ports.add(ws.getPort());
                }
            }
            NormalizedResourceOffer left = new NormalizedResourceOffer(sup.getTotalResources());
            NormalizedResourceRequest used = foreignUse.get(sup.getId());
            if (used != null) {
                left.remove(used, source.getResourceMetrics());   // clamps at zero
            }
            // No server port: Storm's schedulers do not need it (and getServerPort() fails on a null one).
            supervisors.put(sup.getId(), new SupervisorDetails(sup.getId(), null, sup.getHost(), sup.getMeta(),
                    sup.getSchedulerMeta(), ports, left.toNormalizedMap()));
        }
        Topologies topologies = new Topologies(subset.toArray(new TopologyDetails[0]));
        Cluster view = new Cluster(source.getINimbus(), source.getResourceMetrics(), supervisors, own, topologies,
                source.getConf());
        view.setBlacklistedHosts(source.getBlacklistedHosts());
        return new TopologySubsetView(topologies, view);
    }
}
