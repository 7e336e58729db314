package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * What a placing scheduler did to a topology, for {@code /nonstop/decisions/<topology-name>.scheduler}
 * (one write per round in which the topology's placement changed, or a warning was raised):
 * <pre>
 * {"topology": "wc", "topology_id": "wc-1-1700000000", "scheduler": "aniello-offline",
 *  "status": "applied" | "fallback" | "warning", "reason": "offline placement (alpha=0.0, beta=0.5) on 2 worker(s) (2 slot(s) changed)",
 *  "moves": [{"executor": "[3,3]", "from": null, "to": "127.0.0.12:37121"}], "decided_at_ms": 1700000000000}
 * </pre>
 * {@code fallback}: the scheduler could not place it and Storm's DefaultScheduler did; {@code from} or
 * {@code to} is null for an executor that had or got no slot. {@code warning}: a round that moved nothing
 * but raised a condition an operator must see (OTD's "lacking resources"). A scheduler may add a
 * {@code details} object (OTD: its case, the expected gain and the worker loads it saw).
 */
public record SchedulerDecisionRecord(String topology, String topologyId, String scheduler, String status,
                                      String reason, List<Map<String, String>> moves, long decidedAtMs,
                                      Map<String, Object> details) {

    public SchedulerDecisionRecord(String topology, String topologyId, String scheduler, String status, String reason,
                                   List<Map<String, String>> moves, long decidedAtMs) {
        this(topology, topologyId, scheduler, status, reason, moves, decidedAtMs, Map.of());
    }

    public static SchedulerDecisionRecord of(String topology, String topologyId, String scheduler,
                                             ConfiguredScheduler.Decision d, Function<SlotId, String> slotName,
                                             long nowMs) {
        TreeSet<ExecutorId> executors = new TreeSet<>(d.before().executors());
        executors.addAll(d.after().executors());
        List<Map<String, String>> moves = new ArrayList<>();
        for (ExecutorId e : executors) {
            SlotId from = d.before().slotOf(e).orElse(null);
            SlotId to = d.after().slotOf(e).orElse(null);
            if (from == null ? to != null : !from.equals(to)) {
                Map<String, String> m = new LinkedHashMap<>();
                m.put("executor", e.toString());
                m.put("from", from == null ? null : slotName.apply(from));
                m.put("to", to == null ? null : slotName.apply(to));
                moves.add(m);
            }
        }
        String status = d.fallback() ? "fallback" : moves.isEmpty() && d.notice().warning() ? "warning" : "applied";
        return new SchedulerDecisionRecord(topology, topologyId, scheduler, status, d.status(), moves, nowMs,
                                           d.notice().details());
    }

    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("topology", topology);
        m.put("topology_id", topologyId);
        m.put("scheduler", scheduler);
        m.put("status", status);
        m.put("reason", reason);
        m.put("moves", moves);
        m.put("decided_at_ms", decidedAtMs);
        if (!details.isEmpty()) {
            m.put("details", details);
        }
        return JSONValue.toJSONString(m);
    }
}
