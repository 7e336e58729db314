package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.scheduling.model.SlotId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.JSONParser;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * The decision znode ({@code /nonstop/decisions/<topology-name>}), JSON:
 * <pre>
 * {"topology": "relay", "topology_id": "relay-1-1700000000", "plan_version": 3, "request_id": "…",
 *  "status": "applied" | "unchanged" | "rejected", "reason": "…",
 *  "moves": [{"executor": "[3,3]", "from": "127.0.0.11:37101", "to": "127.0.0.12:37121"}],
 *  "decided_at_ms": 1700000000000}
 * </pre>
 * {@code plan_version} is the ZooKeeper data version of the plan znode that was decided, so a reader can
 * tell whether its own write has been decided yet.
 */
public record DecisionRecord(String topology, String topologyId, int planVersion, Optional<String> requestId,
                             PlanDecision.Status status, String reason, List<Map<String, String>> moves,
                             long decidedAtMs) {

    public static DecisionRecord of(String topology, String topologyId, int planVersion, Optional<String> requestId,
                                    PlanDecision d, Function<SlotId, String> slotName, long nowMs) {
        List<Map<String, String>> moves = new ArrayList<>();
        for (PlanDecision.Move m : d.moves()) {
            Map<String, String> mv = new LinkedHashMap<>();
            mv.put("executor", m.executor().toString());
            mv.put("from", m.from() == null ? null : slotName.apply(m.from()));
            mv.put("to", slotName.apply(m.to()));
            moves.add(mv);
        }
        return new DecisionRecord(topology, topologyId, planVersion, requestId, d.status(), d.reason(), moves, nowMs);
    }

    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("topology", topology);
        m.put("topology_id", topologyId);
        m.put("plan_version", planVersion);
        m.put("request_id", requestId.orElse(null));
        m.put("status", status.name().toLowerCase());
        m.put("reason", reason);
        m.put("moves", moves);
        m.put("decided_at_ms", decidedAtMs);
        return JSONValue.toJSONString(m);
    }

    /** The topology id and plan version a stored decision was about, if it can be read. */
    public static Optional<Map.Entry<String, Integer>> decidedVersion(String json) {
        try {
            Object o = new JSONParser(JSONParser.MODE_RFC4627).parse(json);
            if (o instanceof Map<?, ?> m && m.get("topology_id") instanceof String id
                && m.get("plan_version") instanceof Number v) {
                return Optional.of(Map.entry(id, v.intValue()));
            }
        } catch (ParseException | RuntimeException ignored) {
            // an unreadable decision is simply not a decision
        }
        return Optional.empty();
    }
}
