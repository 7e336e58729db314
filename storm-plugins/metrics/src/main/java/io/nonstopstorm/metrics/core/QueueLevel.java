package io.nonstopstorm.metrics.core;

/** Tuples waiting in an executor's receive queue (including its overflow) and the queue's capacity. */
public record QueueLevel(int length, int capacity) {
}
