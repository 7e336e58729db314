package io.nonstopstorm.metrics.core;

import io.nonstopstorm.wire.ExecutorId;

/** Reads an executor's receive-queue level; null when the runtime does not expose it. */
@FunctionalInterface
public interface QueueProbe {
    QueueLevel level(ExecutorId executor);
}
