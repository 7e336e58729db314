package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.wire.ExecutorId;
import java.util.List;
import java.util.Optional;

/**
 * What the plan-following scheduler made of a plan.
 *
 * @param status applied (target differs and is valid), unchanged (already in place), rejected
 * @param reason why it was rejected; a summary otherwise
 * @param target the complete new placement when applied
 * @param moves  executors that change slot when applied
 */
public record PlanDecision(Status status, String reason, Optional<Placement> target, List<Move> moves) {

    public enum Status { APPLIED, UNCHANGED, REJECTED }

    public record Move(ExecutorId executor, SlotId from, SlotId to) {
    }

    public PlanDecision {
        moves = List.copyOf(moves);
    }

    static PlanDecision rejected(String reason) {
        return new PlanDecision(Status.REJECTED, reason, Optional.empty(), List.of());
    }
}
