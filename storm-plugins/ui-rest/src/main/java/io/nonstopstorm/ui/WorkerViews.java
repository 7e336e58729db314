package io.nonstopstorm.ui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.WorkerSummary;

/** JSON-ready views of workers: worker summaries and a topology's distinct worker host:port list. */
public final class WorkerViews {

    private final UiSettings settings;
    private final LogLinks links;

    public WorkerViews(UiSettings settings) {
        this.settings = settings;
        this.links = new LogLinks(settings);
    }

    public List<Map<String, Object>> workers(List<WorkerSummary> summaries) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (WorkerSummary w : summaries) {
            out.add(worker(w));
        }
        return out;
    }

    public Map<String, Object> worker(WorkerSummary w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("supervisorId", w.get_supervisor_id());
        m.put("host", w.get_host());
        m.put("port", w.get_port());
        m.put("topologyId", w.get_topology_id());
        m.put("topologyName", w.get_topology_name());
        m.put("executorsTotal", w.get_num_executors());
        m.put("assignedMemOnHeap", w.get_assigned_memonheap());
        m.put("assignedMemOffHeap", w.get_assigned_memoffheap());
        m.put("assignedCpu", w.get_assigned_cpu());
        m.put("componentNumTasks", new TreeMap<>(Thrift.map(w.get_component_to_num_tasks())));
        m.put("uptime", Pretty.duration(w.get_uptime_secs()));
        m.put("uptimeSeconds", w.get_uptime_secs());
        m.put("workerLogLink", links.worker(w.get_host(), w.get_port(), w.get_topology_id()));
        m.put("owner", w.get_owner());
        return m;
    }

    /** /api/v1/topology-workers/{id}: each worker (host, port) running an executor of the topology, once. */
    public Map<String, Object> hostPortList(TopologyInfo info) {
        Map<String, Map<String, Object>> distinct = new TreeMap<>();
        for (ExecutorSummary e : Thrift.list(info.get_executors())) {
            Map<String, Object> hp = new LinkedHashMap<>();
            hp.put("host", e.get_host());
            hp.put("port", e.get_port());
            distinct.putIfAbsent(e.get_host() + ":" + e.get_port(), hp);
        }
        List<Map<String, Object>> list = new ArrayList<>(distinct.values());
        list.sort(Comparator.comparing((Map<String, Object> hp) -> String.valueOf(hp.get("host")))
            .thenComparingInt(hp -> (Integer) hp.get("port")));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("hostPortList", list);
        result.put("logviewerPort", settings.linkedLogviewerPort());
        result.put("logviewerScheme", settings.logviewerScheme());
        return result;
    }
}
