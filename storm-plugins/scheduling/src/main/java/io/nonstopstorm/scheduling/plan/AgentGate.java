package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.scheduling.model.SlotId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * Refuses a plan whose moves start or end on a host where the migration agent turned itself off (its
 * supervisor's record {@code /nonstop/agents/<host>} says {@code "verified": false}): there a move
 * would not happen live. A host without a record is not judged (no agent, or not published yet).
 * Pure.
 */
public final class AgentGate {
    private AgentGate() {
    }

    /**
     * @param moves   the moves of an applied decision
     * @param hostOf  slot to the host its supervisor runs on
     * @param records host to its agents record (JSON), if any
     * @return why the plan is refused, or empty
     */
    public static Optional<String> refusal(List<PlanDecision.Move> moves, Function<SlotId, String> hostOf,
                                           Function<String, Optional<String>> records) {
        TreeSet<String> hosts = new TreeSet<>();
        for (PlanDecision.Move m : moves) {
            if (m.from() != null) {
                hosts.add(hostOf.apply(m.from()));
            }
            hosts.add(hostOf.apply(m.to()));
        }
        for (String host : hosts) {
            Optional<String> off = records.apply(host).flatMap(AgentGate::offReason);
            if (off.isPresent()) {
                return Optional.of("no live move onto or off host " + host + ": " + off.get());
            }
        }
        return Optional.empty();
    }

    /** The reason in a record that says the agent is off; empty when it is on (or the record is unreadable). */
    static Optional<String> offReason(String json) {
        Object parsed;
        try {
            parsed = JSONValue.parseWithException(json);
        } catch (Exception e) {
            return Optional.empty();
        }
        if (!(parsed instanceof Map<?, ?> record) || !Boolean.FALSE.equals(record.get("verified"))) {
            return Optional.empty();
        }
        return Optional.of("its migration agent is off (Storm " + record.get("storm_version") + "; missing: "
                           + record.get("missing") + ")");
    }
}
