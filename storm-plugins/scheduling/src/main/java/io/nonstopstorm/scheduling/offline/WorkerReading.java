package io.nonstopstorm.scheduling.offline;

/**
 * A measured worker, for OTD: the CPU it uses, in the unit of the node capacities (its share is derived
 * by {@code otd/WorkerShare}), and the summed receive-queue length of its executors.
 */
public record WorkerReading(double load, long queue) {

    public WorkerReading {
        if (!(load >= 0) || Double.isInfinite(load) || queue < 0) {
            throw new IllegalArgumentException("worker load must be finite and >= 0 and queue >= 0, got " + load
                                               + ", " + queue);
        }
    }
}
