package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.model.Outcome;

/** One named scheduler run offline: input model in, one placement per topology out. */
public interface Planner {

    /** The name the CLI and the benchmarks use, e.g. {@code aniello-online}. */
    String name();

    /** One line saying what it does and what it reads. */
    String summary();

    /** Places every topology of the input, or says why it cannot. Never throws for a valid input. */
    Outcome<PlanningResult> plan(PlanningInput input);
}
