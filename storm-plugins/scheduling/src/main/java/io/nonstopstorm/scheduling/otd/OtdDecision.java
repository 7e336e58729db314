package io.nonstopstorm.scheduling.otd;

import java.util.List;

/** What one OTD round decided: at most one move, a warning, or nothing, always with the reason. */
public sealed interface OtdDecision {

    /** The round's case in the paper's numbering (1 load balancing, 2 lacking resources, 3 communication, 4 none). */
    int paperCase();

    String reason();

    /** Move one executor to a worker; {@code asc} is the expected drop in inter-node traffic (tuples/s). */
    record Move(int paperCase, String executor, String fromWorker, String toWorker, double asc, String reason)
        implements OtdDecision {
    }

    /** Case 2: some workers are overloaded and none has room. */
    record LackingResources(List<String> highLoadWorkers, String reason) implements OtdDecision {
        @Override
        public int paperCase() {
            return 2;
        }
    }

    record NoAction(int paperCase, String reason) implements OtdDecision {
    }
}
