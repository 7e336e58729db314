package io.nonstopstorm.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologySummary;

/** JSON-ready views of cluster-wide thrift objects: cluster, nimbus, supervisor and topology summaries. */
public final class ClusterViews {

    private final UiSettings settings;
    private final LogLinks links;
    private final WorkerViews workers;

    public ClusterViews(UiSettings settings) {
        this.settings = settings;
        this.links = new LogLinks(settings);
        this.workers = new WorkerViews(settings);
    }

    /** /api/v1/cluster/summary. */
    public Map<String, Object> clusterSummary(ClusterSummary cluster) {
        List<SupervisorSummary> sups = Thrift.list(cluster.get_supervisors());
        List<TopologySummary> topos = Thrift.list(cluster.get_topologies());
        int slotsTotal = sups.stream().mapToInt(SupervisorSummary::get_num_workers).sum();
        int slotsUsed = sups.stream().mapToInt(SupervisorSummary::get_num_used_workers).sum();
        double totalMem = sups.stream().mapToDouble(s -> Resources.totalMemory(s.get_total_resources())).sum();
        double totalCpu = sups.stream().mapToDouble(s -> Resources.totalCpu(s.get_total_resources())).sum();
        double usedMem = sups.stream().mapToDouble(SupervisorSummary::get_used_mem).sum();
        double usedCpu = sups.stream().mapToDouble(SupervisorSummary::get_used_cpu).sum();

        Map<String, Object> m = new LinkedHashMap<>();
        m.put("user", null);
        m.put("stormVersion", settings.stormVersion());
        m.put("supervisors", sups.size());
        m.put("topologies", topos.size());
        m.put("slotsTotal", slotsTotal);
        m.put("slotsUsed", slotsUsed);
        m.put("slotsFree", slotsTotal - slotsUsed);
        m.put("executorsTotal", topos.stream().mapToInt(TopologySummary::get_num_executors).sum());
        m.put("tasksTotal", topos.stream().mapToInt(TopologySummary::get_num_tasks).sum());
        m.put("schedulerDisplayResource", settings.schedulerDisplayResource());
        m.put("totalMem", totalMem);
        m.put("totalCpu", totalCpu);
        m.put("availMem", totalMem - usedMem);
        m.put("availCpu", totalCpu - usedCpu);
        m.put("fragmentedMem", sups.stream().mapToDouble(SupervisorSummary::get_fragmented_mem).sum());
        m.put("fragmentedCpu", sups.stream().mapToDouble(SupervisorSummary::get_fragmented_cpu).sum());
        m.put("memAssignedPercentUtil", totalMem > 0 ? Pretty.decimal(usedMem * 100.0 / totalMem) : "0.0");
        m.put("cpuAssignedPercentUtil", totalCpu > 0 ? Pretty.decimal(usedCpu * 100.0 / totalCpu) : "0.0");
        return m;
    }

    /** /api/v1/nimbus/summary: the Nimbus daemons that report, then configured seeds that do not ("Offline"). */
    public Map<String, Object> nimbusSummary(ClusterSummary cluster) {
        List<Map<String, Object>> nimbuses = new ArrayList<>();
        Set<String> silentSeeds = new LinkedHashSet<>(settings.remoteNimbusSeeds());
        for (NimbusSummary n : Thrift.list(cluster.get_nimbuses())) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", n.get_host());
            m.put("port", n.get_port());
            m.put("status", n.is_isLeader() ? "Leader" : "Not a Leader");
            m.put("version", n.get_version());
            m.put("nimbusUpTime", Pretty.duration(n.get_uptime_secs()));
            m.put("nimbusUpTimeSeconds", n.get_uptime_secs());
            m.put("nimbusLogLink", links.daemon(n.get_host(), "nimbus.log"));
            nimbuses.add(m);
            silentSeeds.remove(n.get_host() + ":" + n.get_port());
        }
        for (String seed : silentSeeds) {
            int colon = seed.lastIndexOf(':');
            String host = seed.substring(0, colon);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", host);
            m.put("port", seed.substring(colon + 1));
            m.put("status", "Offline");
            m.put("version", "Not applicable");
            m.put("nimbusUpTime", "Not applicable");
            m.put("nimbusUpTimeSeconds", "Not applicable");
            m.put("nimbusLogLink", links.daemon(host, "nimbus.log"));
            nimbuses.add(m);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("nimbuses", nimbuses);
        return result;
    }

    /** /api/v1/supervisor/summary. */
    public Map<String, Object> supervisorSummary(ClusterSummary cluster) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("supervisors", supervisors(Thrift.list(cluster.get_supervisors())));
        result.put("schedulerDisplayResource", settings.schedulerDisplayResource());
        addLogviewerInfo(result);
        return result;
    }

    /** /api/v1/supervisor?id=..|host=..: the matching supervisors and their workers. */
    public Map<String, Object> supervisorPage(SupervisorPageInfo page) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("supervisors", supervisors(Thrift.list(page.get_supervisor_summaries())));
        result.put("workers", workers.workers(Thrift.list(page.get_worker_summaries())));
        result.put("schedulerDisplayResource", settings.schedulerDisplayResource());
        addLogviewerInfo(result);
        return result;
    }

    /** /api/v1/topology/summary. */
    public Map<String, Object> topologySummary(ClusterSummary cluster) {
        List<Map<String, Object>> topologies = new ArrayList<>();
        for (TopologySummary t : Thrift.list(cluster.get_topologies())) {
            topologies.add(topology(t));
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("topologies", topologies);
        result.put("schedulerDisplayResource", settings.schedulerDisplayResource());
        return result;
    }

    Map<String, Object> topology(TopologySummary t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t.get_id());
        m.put("encodedId", LogLinks.encode(t.get_id()));
        m.put("owner", t.get_owner());
        m.put("name", t.get_name());
        m.put("status", t.get_status());
        m.put("uptime", Pretty.duration(t.get_uptime_secs()));
        m.put("uptimeSeconds", t.get_uptime_secs());
        m.put("tasksTotal", t.get_num_tasks());
        m.put("workersTotal", t.get_num_workers());
        m.put("executorsTotal", t.get_num_executors());
        m.put("replicationCount", t.get_replication_count());
        m.put("schedulerInfo", t.get_sched_status());
        m.put("requestedMemOnHeap", t.get_requested_memonheap());
        m.put("requestedMemOffHeap", t.get_requested_memoffheap());
        m.put("requestedTotalMem", t.get_requested_memonheap() + t.get_requested_memoffheap());
        m.put("requestedCpu", t.get_requested_cpu());
        m.put("assignedMemOnHeap", t.get_assigned_memonheap());
        m.put("assignedMemOffHeap", t.get_assigned_memoffheap());
        m.put("assignedTotalMem", t.get_assigned_memonheap() + t.get_assigned_memoffheap());
        m.put("assignedCpu", t.get_assigned_cpu());
        m.put("topologyVersion", t.get_topology_version());
        m.put("stormVersion", t.get_storm_version());
        return m;
    }

    private List<Map<String, Object>> supervisors(List<SupervisorSummary> sups) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (SupervisorSummary s : sups) {
            out.add(supervisor(s));
        }
        return out;
    }

    Map<String, Object> supervisor(SupervisorSummary s) {
        double totalMem = Resources.totalMemory(s.get_total_resources());
        double totalCpu = Resources.totalCpu(s.get_total_resources());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.get_supervisor_id());
        m.put("host", s.get_host());
        m.put("uptime", Pretty.duration(s.get_uptime_secs()));
        m.put("uptimeSeconds", s.get_uptime_secs());
        m.put("blacklisted", s.is_blacklisted());
        m.put("slotsTotal", s.get_num_workers());
        m.put("slotsUsed", s.get_num_used_workers());
        m.put("slotsFree", Math.max(s.get_num_workers() - s.get_num_used_workers(), 0));
        m.put("totalMem", totalMem);
        m.put("totalCpu", totalCpu);
        m.put("usedMem", s.get_used_mem());
        m.put("usedCpu", s.get_used_cpu());
        m.put("availMem", totalMem - s.get_used_mem());
        m.put("availCpu", totalCpu - s.get_used_cpu());
        m.put("logLink", links.daemon(s.get_host(), "supervisor.log"));
        m.put("version", s.get_version());
        return m;
    }

    private void addLogviewerInfo(Map<String, Object> result) {
        result.put("logviewerPort", settings.linkedLogviewerPort());
        result.put("logviewerScheme", settings.logviewerScheme());
    }
}
