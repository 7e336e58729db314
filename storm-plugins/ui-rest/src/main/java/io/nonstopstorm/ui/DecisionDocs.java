package io.nonstopstorm.ui;

/**
 * What ZooKeeper holds about one topology's latest move, as read (no parsing yet).
 *
 * @param topology           topology name (the znode name under {@code /nonstop/decisions})
 * @param schedulerDecision  {@code /nonstop/decisions/<topology>}: the plan-following scheduler's decision, JSON
 * @param planVersion        data version of {@code /nonstop/plans/<topology>}, or -1 when there is no plan
 * @param planWrittenAtMs    modification time of that plan znode (ZooKeeper's clock), or -1
 * @param controllerDecision {@code /nonstop/controller/decisions/<topology>}: the controller's latest decision
 *                           record, JSON, or null when the controller never decided about the topology
 */
public record DecisionDocs(String topology, String schedulerDecision, int planVersion, long planWrittenAtMs,
                           String controllerDecision) {
}
