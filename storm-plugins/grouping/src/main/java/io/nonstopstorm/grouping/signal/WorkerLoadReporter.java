package io.nonstopstorm.grouping.signal;

import java.util.Optional;

/**
 * The worker side of worker delegation: feed it the worker's utilisation, it publishes the signals
 * its {@link WorkerDelegate} decides on. The caller measures utilisation (the simulator: assigned
 * messages per slot over capacity; Storm: e.g. queue length or executor capacity) and supplies time.
 */
public final class WorkerLoadReporter {
    private final int worker;
    private final WorkerDelegate delegate;
    private final LoadSignals path;

    public WorkerLoadReporter(int worker, WorkerDelegate delegate, LoadSignals path) {
        this.worker = worker;
        this.delegate = delegate;
        this.path = path;
    }

    public int worker() {
        return worker;
    }

    /** One measurement; returns the signal published, if any. */
    public Optional<LoadSignal> report(long now, double utilisation) {
        Optional<LoadSignal> signal = delegate.observe(now, utilisation);
        signal.ifPresent(s -> path.publish(worker, s));
        return signal;
    }
}
