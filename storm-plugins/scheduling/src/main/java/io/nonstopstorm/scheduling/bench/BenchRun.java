package io.nonstopstorm.scheduling.bench;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.offline.Planner;
import io.nonstopstorm.scheduling.offline.Planners;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.PlanningResult;
import io.nonstopstorm.scheduling.offline.TopologyWorkload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schedulers as the benchmarks run them: every {@link Planners planner} by name, plus
 * {@code otd-converged}, OTD rounds repeated until a round moves nothing (at most {@link #MAX_OTD_ROUNDS}),
 * which is where OTD ends up if the load stays the same.
 */
final class BenchRun {

    static final String OTD_CONVERGED = "otd-converged";
    static final int MAX_OTD_ROUNDS = 200;

    private BenchRun() {
    }

    static List<String> schedulerNames() {
        List<String> names = new ArrayList<>(Planners.names());
        names.add(names.indexOf("otd") + 1, OTD_CONVERGED);
        return names;
    }

    static Outcome<PlanningResult> plan(String scheduler, PlanningInput input) {
        if (!scheduler.equals(OTD_CONVERGED)) {
            return Planners.named(scheduler).orElseThrow(() -> new IllegalArgumentException("unknown scheduler " + scheduler))
                    .plan(input);
        }
        Planner otd = Planners.named("otd").orElseThrow();
        PlanningInput current = input;
        Outcome<PlanningResult> last = null;
        for (int round = 1; round <= MAX_OTD_ROUNDS; round++) {
            last = otd.plan(current);
            if (!last.isSuccess()) {
                return last;
            }
            PlanningResult r = last.orElseThrow();
            boolean moved = false;
            List<TopologyWorkload> next = new ArrayList<>();
            for (TopologyWorkload w : current.topologies()) {
                Placement p = r.placementOf(w.id());
                moved |= !p.equals(w.current());
                next.add(w.withCurrent(p));
            }
            if (!moved) {
                Map<String, List<String>> notes = new LinkedHashMap<>();
                for (String id : r.placements().keySet()) {
                    notes.put(id, List.of("converged after " + round + " round(s)"));
                }
                return Outcome.success(new PlanningResult(r.placements(), notes));
            }
            current = current.withTopologies(next);
        }
        return last;
    }
}
