package io.nonstopstorm.scheduling.core;

import java.util.List;

/**
 * Whether to replace the current placement by a candidate, and why (for logs and the topology status).
 *
 * @param apply                   true: apply the candidate
 * @param reason                  one line a human can read
 * @param currentInterNodeTraffic tuples/s crossing nodes now (as predicted from the traffic matrix)
 * @param candidateInterNodeTraffic tuples/s crossing nodes under the candidate
 * @param overloadedNodes         nodes over capacity for longer than their window
 */
public record RescheduleDecision(boolean apply, String reason, double currentInterNodeTraffic,
                                 double candidateInterNodeTraffic, List<String> overloadedNodes) {

    public RescheduleDecision {
        overloadedNodes = List.copyOf(overloadedNodes);
    }
}
