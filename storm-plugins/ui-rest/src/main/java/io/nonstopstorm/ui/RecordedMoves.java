package io.nonstopstorm.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ZkPaths;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the moves out of a topology's decision documents: the plan-following scheduler's decision gives each
 * applied move (executor, from, to, when) and the plan version it decided; the controller's latest record
 * gives the reason when it asked for that move; the plan znode's modification time gives the time from the
 * plan's write to the scheduler's decision. Pure: JSON text in, {@link Move}s out.
 */
public final class RecordedMoves {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One executor moved by an applied decision.
     *
     * @param topology         topology name
     * @param topologyId       topology id the decision was about
     * @param planVersion      version of the plan that was decided
     * @param executor         "[start-end]", as Storm's UI names executors
     * @param from             "host:port" it left, or null when it had no worker
     * @param to               "host:port" it went to
     * @param reason           the controller's reason for the move, else the scheduler's reason for the decision
     * @param source           "controller" when the controller asked for it, else "plan" (an operator's plan)
     * @param planToDecisionMs plan written to the scheduler's decision (Nimbus writes the assignment then), or
     *                         null when the plan's write time is unknown (the plan was rewritten since)
     * @param decidedAtMs      when the scheduler decided (Nimbus's clock)
     */
    public record Move(String topology, String topologyId, int planVersion, String executor, String from, String to,
                       String reason, String source, Long planToDecisionMs, long decidedAtMs) {
    }

    private RecordedMoves() {
    }

    /**
     * The moves of one topology's latest decision: none unless it was applied.
     *
     * @throws IllegalArgumentException naming the znode, when a document is not the format its writer uses
     */
    public static List<Move> of(DecisionDocs docs) {
        String where = ZkPaths.decision(docs.topology());
        JsonNode decision = parse(docs.schedulerDecision(), where);
        if (!"applied".equals(text(decision, "status", where))) {
            return List.of();
        }
        String topologyId = text(decision, "topology_id", where);
        int planVersion = number(decision, "plan_version", where).intValue();
        long decidedAt = number(decision, "decided_at_ms", where).longValue();
        String schedulerReason = decision.path("reason").asText("");
        Long planToDecision = docs.planVersion() == planVersion && docs.planWrittenAtMs() >= 0
            && decidedAt >= docs.planWrittenAtMs() ? decidedAt - docs.planWrittenAtMs() : null;
        JsonNode controller = docs.controllerDecision() == null ? null
            : parse(docs.controllerDecision(), controllerZnode(docs));
        List<JsonNode> asked = controllerMoves(controller, controllerZnode(docs));
        JsonNode moves = decision.get("moves");
        if (moves == null || !moves.isArray()) {
            throw new IllegalArgumentException(where + ": 'moves' is not a list");
        }
        List<Move> out = new ArrayList<>();
        for (JsonNode m : moves) {
            String executor = executorId(text(m, "executor", where), where);
            String from = m.path("from").isTextual() ? m.get("from").asText() : null;
            String to = text(m, "to", where);
            JsonNode request = asked.stream()
                .filter(a -> executor.equals(executorIdOrNull(a.path("executor").asText()))
                    && to.equals(a.path("to_slot").asText()))
                .findFirst().orElse(null);
            String reason = schedulerReason;
            if (request != null) {
                // A move's own reason is the specific one; the record's reason explains the whole cycle.
                String own = request.path("reason").asText("");
                reason = own.isEmpty() ? controller.path("reason").asText(schedulerReason) : own;
            }
            out.add(new Move(docs.topology(), topologyId, planVersion, executor, from, to, reason,
                request == null ? "plan" : "controller", planToDecision, decidedAt));
        }
        return out;
    }

    /** "[3,3]" (the scheduler's form) or "[3-3]" (the controller's) as Storm's UI writes executors: "[3-3]". */
    static String executorId(String raw, String where) {
        String id = executorIdOrNull(raw);
        if (id == null) {
            throw new IllegalArgumentException(where + ": executor '" + raw + "' is not [start,end]");
        }
        return id;
    }

    private static String executorIdOrNull(String raw) {
        try {
            return ExecutorId.parse(raw, ExecutorId.Spelling.WIRE, ExecutorId.Spelling.UI).toUiString();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The moves the controller applied in its latest record about the topology (none without a record). */
    private static List<JsonNode> controllerMoves(JsonNode record, String where) {
        JsonNode applied = record == null ? null : record.get("applied");
        if (applied == null || applied.isNull()) {
            return List.of();
        }
        if (!applied.isArray()) {
            throw new IllegalArgumentException(where + ": 'applied' is not a list");
        }
        List<JsonNode> out = new ArrayList<>();
        applied.forEach(out::add);
        return out;
    }

    private static String controllerZnode(DecisionDocs docs) {
        return ZkPaths.controllerDecision(docs.topology());
    }

    private static JsonNode parse(String json, String where) {
        if (json == null) {
            throw new IllegalArgumentException(where + ": no document");
        }
        try {
            JsonNode node = JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException(where + ": not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + ": not JSON (" + e.getOriginalMessage() + ")");
        }
    }

    private static String text(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(where + ": '" + field + "' is not a string");
        }
        return v.asText();
    }

    private static Number number(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isNumber()) {
            throw new IllegalArgumentException(where + ": '" + field + "' is not a number");
        }
        return v.numberValue();
    }
}
