package io.nonstopstorm.scheduling.model;

import java.util.Objects;

/** A stream between two components: {@code from} emits tuples that {@code to} consumes. */
public record Edge(String from, String to) {

    public Edge {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
    }
}
