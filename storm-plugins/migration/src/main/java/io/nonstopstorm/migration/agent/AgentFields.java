package io.nonstopstorm.migration.agent;

/** Names of the fields the agent adds to Storm classes. */
final class AgentFields {
    /** Routing epoch an ExecutorTransfer's local-queue view was built for. */
    static final String EPOCH = "nonstop$routingEpoch";

    private AgentFields() {
    }
}
