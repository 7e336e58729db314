package io.nonstopstorm.scheduling.offline;

/**
 * A measured worker signal for OTD: CPU as a share (0..1) of what the worker may use, and the summed
 * receive-queue length of its executors.
 */
public record WorkerReading(double cpu, long queue) {

    public WorkerReading {
        if (!(cpu >= 0) || queue < 0) {
            throw new IllegalArgumentException("worker cpu and queue must be >= 0, got " + cpu + ", " + queue);
        }
    }
}
