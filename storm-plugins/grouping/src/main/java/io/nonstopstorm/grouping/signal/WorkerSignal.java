package io.nonstopstorm.grouping.signal;

/** A load signal together with the index of the worker that sent it. */
public record WorkerSignal(int worker, LoadSignal signal) {
    public WorkerSignal {
        if (worker < 0) {
            throw new IllegalArgumentException("worker index must be >= 0, got " + worker);
        }
        if (signal == null) {
            throw new IllegalArgumentException("signal must not be null");
        }
    }
}
