package io.nonstopstorm.ui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;

/**
 * The document of {@code GET /api/v1/nonstop/placement}, which the placement page {@code /nonstop/} draws:
 * where every executor of every running topology is, per Nimbus, and the last moves recorded in ZooKeeper.
 * <pre>
 * {"generatedAtMs": 1700000000000,
 *  "topologies": [{"id": "wc-1-1700000000", "name": "wc", "status": "ACTIVE",
 *    "nodes": [{"host": "127.0.0.11",
 *      "workers": [{"slot": "127.0.0.11:37101", "port": 37101,
 *        "executors": [{"id": "[3-3]", "component": "split"}]}]}]}],
 *  "moves": [{"topology": "wc", "topologyId": "wc-1-1700000000", "executor": "[3-3]",
 *    "from": "127.0.0.11:37101", "to": "127.0.0.12:37121", "reason": "…", "source": "controller" | "plan",
 *    "planToDecisionMs": 412, "decidedAtMs": 1700000000000}],
 *  "movesUnavailable": null}
 * </pre>
 * Topologies are in name order, nodes in host order, workers in port order, executors in task order; system
 * executors (acker, metrics) are listed as Nimbus reports them. {@code moves} are newest first ({@link MoveLog}),
 * {@code planToDecisionMs} is null when the plan's write time is unknown (see {@link RecordedMoves.Move}).
 * {@code movesUnavailable} is null when every decision document could be read, else why not (ZooKeeper
 * unreachable, a malformed document): the placement is complete either way, the moves may be partial.
 */
public final class PlacementDocument {

    private PlacementDocument() {
    }

    public static Map<String, Object> of(List<TopologyInfo> topologies, List<RecordedMoves.Move> moves,
                                         String movesUnavailable, long nowMs) {
        List<TopologyInfo> sorted = new ArrayList<>(topologies);
        sorted.sort(Comparator.comparing(TopologyInfo::get_name).thenComparing(TopologyInfo::get_id));
        List<Map<String, Object>> topos = new ArrayList<>();
        for (TopologyInfo t : sorted) {
            topos.add(topology(t));
        }
        List<Map<String, Object>> moveList = new ArrayList<>();
        for (RecordedMoves.Move m : moves) {
            moveList.add(move(m));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("generatedAtMs", nowMs);
        doc.put("topologies", topos);
        doc.put("moves", moveList);
        doc.put("movesUnavailable", movesUnavailable);
        return doc;
    }

    private static Map<String, Object> topology(TopologyInfo t) {
        // host -> port -> executors ordered by first task
        Map<String, Map<Integer, List<ExecutorSummary>>> byHost = new TreeMap<>();
        for (ExecutorSummary e : Thrift.list(t.get_executors())) {
            byHost.computeIfAbsent(e.get_host(), h -> new TreeMap<>())
                .computeIfAbsent(e.get_port(), p -> new ArrayList<>()).add(e);
        }
        List<Map<String, Object>> nodes = new ArrayList<>();
        byHost.forEach((host, ports) -> {
            List<Map<String, Object>> workers = new ArrayList<>();
            ports.forEach((port, executors) -> {
                executors.sort(Comparator.comparingInt((ExecutorSummary e) -> e.get_executor_info().get_task_start()));
                List<Map<String, Object>> execs = new ArrayList<>();
                for (ExecutorSummary e : executors) {
                    Map<String, Object> ex = new LinkedHashMap<>();
                    ex.put("id", "[" + e.get_executor_info().get_task_start() + "-"
                        + e.get_executor_info().get_task_end() + "]");
                    ex.put("component", e.get_component_id());
                    execs.add(ex);
                }
                Map<String, Object> w = new LinkedHashMap<>();
                w.put("slot", host + ":" + port);
                w.put("port", port);
                w.put("executors", execs);
                workers.add(w);
            });
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("host", host);
            node.put("workers", workers);
            nodes.add(node);
        });
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t.get_id());
        m.put("name", t.get_name());
        m.put("status", t.get_status());
        m.put("nodes", nodes);
        return m;
    }

    private static Map<String, Object> move(RecordedMoves.Move mv) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("topology", mv.topology());
        m.put("topologyId", mv.topologyId());
        m.put("executor", mv.executor());
        m.put("from", mv.from());
        m.put("to", mv.to());
        m.put("reason", mv.reason());
        m.put("source", mv.source());
        m.put("planToDecisionMs", mv.planToDecisionMs());
        m.put("decidedAtMs", mv.decidedAtMs());
        return m;
    }
}
