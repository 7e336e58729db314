package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A request to move executors of one topology: executor → target slot. Executors it does not name stay
 * where they are.
 *
 * @param requestId the writer's id for this request, echoed in the decision (may be absent)
 * @param moves     executor → where it should run
 */
public record MigrationPlan(Optional<String> requestId, SortedMap<ExecutorId, PlanTarget> moves) {

    public MigrationPlan {
        moves = Collections.unmodifiableSortedMap(new TreeMap<>(moves));
    }
}
