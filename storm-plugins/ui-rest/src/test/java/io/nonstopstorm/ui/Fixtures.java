package io.nonstopstorm.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.BoltAggregateStats;
import org.apache.storm.generated.CommonAggregateStats;
import org.apache.storm.generated.ComponentAggregateStats;
import org.apache.storm.generated.ComponentType;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.ExecutorAggregateStats;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.SpecificAggregateStats;
import org.apache.storm.generated.SpoutAggregateStats;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.generated.WorkerSummary;

/** Hand-built thrift objects for the view tests. */
final class Fixtures {

    private Fixtures() {
    }

    static SupervisorSummary supervisor(String id, String host, int slots, int used, Map<String, Double> total,
                                        double usedMem, double usedCpu) {
        SupervisorSummary s = new SupervisorSummary(host, 125, slots, used, id);
        s.set_total_resources(new HashMap<>(total));
        s.set_used_mem(usedMem);
        s.set_used_cpu(usedCpu);
        s.set_version("2.8.3");
        return s;
    }

    static TopologySummary topology(String id, String name, int tasks, int executors, int workers) {
        TopologySummary t = new TopologySummary(id, name, tasks, executors, workers, 3725, "ACTIVE");
        t.set_requested_memonheap(256);
        t.set_requested_memoffheap(64);
        t.set_assigned_memonheap(512);
        t.set_assigned_memoffheap(32);
        t.set_owner("alice");
        return t;
    }

    static NimbusSummary nimbus(String host, int port, boolean leader) {
        return new NimbusSummary(host, port, 61, leader, "2.8.3");
    }

    static CommonAggregateStats common(int executors, int tasks, long emitted, long transferred, long acked,
                                       long failed) {
        CommonAggregateStats c = new CommonAggregateStats();
        c.set_num_executors(executors);
        c.set_num_tasks(tasks);
        c.set_emitted(emitted);
        c.set_transferred(transferred);
        c.set_acked(acked);
        c.set_failed(failed);
        return c;
    }

    static ComponentAggregateStats boltStats(CommonAggregateStats common, double exec, double proc, long executed,
                                             double capacity) {
        BoltAggregateStats b = new BoltAggregateStats();
        b.set_execute_latency_ms(exec);
        b.set_process_latency_ms(proc);
        b.set_executed(executed);
        b.set_capacity(capacity);
        return componentStats(ComponentType.BOLT, common, SpecificAggregateStats.bolt(b));
    }

    static ComponentAggregateStats spoutStats(CommonAggregateStats common, double completeLatency) {
        SpoutAggregateStats sp = new SpoutAggregateStats();
        sp.set_complete_latency_ms(completeLatency);
        return componentStats(ComponentType.SPOUT, common, SpecificAggregateStats.spout(sp));
    }

    private static ComponentAggregateStats componentStats(ComponentType type, CommonAggregateStats common,
                                                          SpecificAggregateStats specific) {
        ComponentAggregateStats s = new ComponentAggregateStats();
        s.set_type(type);
        s.set_common_stats(common);
        s.set_specific_stats(specific);
        return s;
    }

    static ErrorInfo error(String text, int timeSecs, String host, int port) {
        ErrorInfo e = new ErrorInfo(text, timeSecs);
        e.set_host(host);
        e.set_port(port);
        return e;
    }

    static ExecutorSummary executor(String component, int start, int end, String host, int port, int uptime) {
        return new ExecutorSummary(new ExecutorInfo(start, end), component, host, port, uptime);
    }

    static ExecutorAggregateStats executorStats(ExecutorSummary summary, ComponentAggregateStats stats) {
        ExecutorAggregateStats e = new ExecutorAggregateStats();
        e.set_exec_summary(summary);
        e.set_stats(stats);
        return e;
    }

    static WorkerSummary worker(String supervisorId, String host, int port, String topologyId,
                                Map<String, Long> componentTasks) {
        WorkerSummary w = new WorkerSummary();
        w.set_supervisor_id(supervisorId);
        w.set_host(host);
        w.set_port(port);
        w.set_topology_id(topologyId);
        w.set_topology_name("name-of-" + topologyId);
        w.set_num_executors(componentTasks.values().stream().mapToInt(Long::intValue).sum());
        w.set_component_to_num_tasks(new HashMap<>(componentTasks));
        w.set_uptime_secs(90);
        w.set_assigned_memonheap(300);
        w.set_assigned_cpu(40);
        return w;
    }

    @SafeVarargs
    static <T> List<T> listOf(T... items) {
        return new ArrayList<>(List.of(items));
    }

    /** The list of JSON objects a view puts under {@code key}. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> rows(Map<String, Object> view, String key) {
        return (List<Map<String, Object>>) view.get(key);
    }
}
