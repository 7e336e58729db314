package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ExecutorSpans;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.storm.shade.net.minidev.json.parser.JSONParser;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * Reads a plan znode. Schema (JSON object):
 * <pre>
 * {"request_id": "optional, echoed in the decision",
 *  "placement": {"[3,3]": "127.0.0.12:37121", "[5,6]": "&lt;supervisor-id&gt;:37122"}}
 * </pre>
 * Executor keys are Storm executor ids {@code [start,end]} (the UI's {@code [start-end]} is accepted; no spaces);
 * values are {@code HOST:PORT} or {@code SUPERVISOR_ID:PORT}. Executor ids follow {@link ExecutorSpans}
 * (user executors only: Storm's system executor never moves); the decider then refuses ids the topology
 * does not have.
 */
public final class MigrationPlanParser {
    private MigrationPlanParser() {
    }

    public static Outcome<MigrationPlan> parse(String json) {
        Object root;
        try {
            root = new JSONParser(JSONParser.MODE_RFC4627).parse(json == null ? "" : json);
        } catch (ParseException | RuntimeException e) {
            return Outcome.failure("plan is not valid JSON: " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> obj)) {
            return Outcome.failure("plan must be a JSON object");
        }
        Object rid = obj.get("request_id");
        if (rid != null && !(rid instanceof String)) {
            return Outcome.failure("request_id must be a string");
        }
        if (!(obj.get("placement") instanceof Map<?, ?> placement)) {
            return Outcome.failure("plan has no \"placement\" object (executor \"[s,e]\" -> \"HOST:PORT\")");
        }
        if (placement.isEmpty()) {
            return Outcome.failure("plan places no executor");
        }
        TreeMap<ExecutorId, PlanTarget> moves = new TreeMap<>();
        long tasks = 0;
        for (Map.Entry<?, ?> e : placement.entrySet()) {
            String key = String.valueOf(e.getKey());
            ExecutorId id;
            PlanTarget target;
            try {
                // A plan may be written by hand with an id copied from Storm's UI.
                id = ExecutorSpans.parse(key, false, ExecutorId.Spelling.WIRE, ExecutorId.Spelling.UI);
                tasks += id.taskCount();
                if (!(e.getValue() instanceof String s)) {
                    return Outcome.failure("target of executor " + key + " must be a \"HOST:PORT\" string");
                }
                target = PlanTarget.parse(s);
            } catch (IllegalArgumentException ex) {
                return Outcome.failure("executor " + key + ": " + ex.getMessage());
            }
            if (moves.put(id, target) != null) {
                return Outcome.failure("executor " + id + " is placed more than once in the plan");
            }
        }
        Optional<String> over = ExecutorSpans.checkTotal(tasks);
        if (over.isPresent()) {
            return Outcome.failure("placement: " + over.get());
        }
        return Outcome.success(new MigrationPlan(Optional.ofNullable((String) rid), moves));
    }
}
