package io.nonstopstorm.migration.worker;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bumped whenever the set of executors local to this worker changes. Every executor's transfer
 * path compares it with the epoch of its own routing snapshot and rebuilds the snapshot on its own
 * thread when they differ, so no other thread ever touches an executor's routing arrays.
 */
public final class RoutingEpoch {
    private static final AtomicInteger EPOCH = new AtomicInteger(1);

    private RoutingEpoch() {
    }

    public static int current() {
        return EPOCH.get();
    }

    public static int bump() {
        return EPOCH.incrementAndGet();
    }
}
