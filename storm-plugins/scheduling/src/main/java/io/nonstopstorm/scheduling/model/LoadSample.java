package io.nonstopstorm.scheduling.model;

/** One measurement of a node's CPU load (same unit as the node's capacity) at a time in milliseconds. */
public record LoadSample(long timeMillis, double load) {
}
