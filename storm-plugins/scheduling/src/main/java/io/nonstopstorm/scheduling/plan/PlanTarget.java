package io.nonstopstorm.scheduling.plan;

import java.util.Objects;

/**
 * Where a plan sends an executor: a supervisor named by its id or by its host, and a worker port.
 *
 * @param node supervisor id or host name/address
 * @param port worker slot port
 */
public record PlanTarget(String node, int port) {

    public PlanTarget {
        Objects.requireNonNull(node, "node");
        if (node.isBlank()) {
            throw new IllegalArgumentException("target node is blank");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("target port " + port + " is not a port");
        }
    }

    /** Parses "host:port" or "supervisor-id:port" (split at the last colon). */
    public static PlanTarget parse(String text) {
        int colon = text == null ? -1 : text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("target '" + text + "' is not HOST:PORT or SUPERVISOR_ID:PORT");
        }
        try {
            return new PlanTarget(text.substring(0, colon).trim(), Integer.parseInt(text.substring(colon + 1).trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("target '" + text + "' has no numeric port");
        }
    }

    @Override
    public String toString() {
        return node + ":" + port;
    }
}
