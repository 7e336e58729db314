package io.nonstopstorm.grouping.signal;

import java.util.Optional;

/**
 * Worker delegation for one worker: turns its utilisation measurements into load signals. A signal is
 * emitted only when utilisation is outside the policy's band and at least one time slot has passed
 * since the last signal (or since the worker started), so the worker has seen enough of the stream
 * under the current routing before asking again. The caller supplies time; nothing here reads a clock.
 */
public final class WorkerDelegate {
    private final DelegationPolicy policy;
    private long lastSignalAt;

    public WorkerDelegate(DelegationPolicy policy, long startTime) {
        this.policy = policy;
        this.lastSignalAt = startTime;
    }

    public DelegationPolicy policy() {
        return policy;
    }

    /** One measurement at time {@code now}; returns the signal to send, if any. */
    public Optional<LoadSignal> observe(long now, double utilisation) {
        if (now - lastSignalAt < policy.timeSlot()) {
            return Optional.empty();
        }
        LoadSignal signal = policy.classify(utilisation);
        if (signal == null) {
            return Optional.empty();
        }
        lastSignalAt = now;
        return Optional.of(signal);
    }
}
