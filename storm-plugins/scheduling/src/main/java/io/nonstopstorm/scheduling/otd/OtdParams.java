package io.nonstopstorm.scheduling.otd;

/**
 * OTD's tunables. The paper states none of the thresholds; the defaults are ours:
 * a worker is HIGH when its CPU or its queues say it cannot keep up, LOW when both say it has room.
 *
 * @param highCpu        CPU share (0..1 of the worker's share of its node) at or above which a worker is HIGH
 * @param lowCpu         CPU share at or below which a worker may be LOW
 * @param highQueue      summed receive-queue length at or above which a worker is HIGH
 * @param lowQueue       summed receive-queue length at or below which a worker may be LOW
 * @param thresholdAsc   Algorithm 2 moves only if the best ASC (tuples/s of inter-node traffic saved) exceeds this
 * @param maxExecutorsPerWorker a worker holding this many executors is full (0 = no limit)
 * @param mayTakeLastExecutor   whether a move may take a worker's last spout or bolt executor, as the paper's
 *                              algorithms may (the worker runs on with Storm's own executors, e.g. its acker;
 *                              without any, Storm frees its slot). Off by default: the topology keeps every
 *                              worker busy.
 * @param relieveWithinNode     whether Algorithm 1 may relieve an overloaded worker onto a LOW worker of its own
 *                              node, as the paper's "least-loaded LOW worker per node" includes. On by default.
 *                              Off suits nodes whose workers share the node's CPUs (no per-worker CPU limit): a
 *                              move inside such a node leaves the node exactly as busy, so it relieves nothing
 *                              and only costs the moved executor's restart.
 */
public record OtdParams(double highCpu, double lowCpu, long highQueue, long lowQueue, double thresholdAsc,
                        int maxExecutorsPerWorker, boolean mayTakeLastExecutor, boolean relieveWithinNode) {

    public static final OtdParams DEFAULTS = new OtdParams(0.80, 0.50, 1000, 100, 10.0, 0, false, true);

    /** A move never takes a worker's last executor. */
    public OtdParams(double highCpu, double lowCpu, long highQueue, long lowQueue, double thresholdAsc,
                     int maxExecutorsPerWorker) {
        this(highCpu, lowCpu, highQueue, lowQueue, thresholdAsc, maxExecutorsPerWorker, false);
    }

    /** Algorithm 1 may relieve a worker onto a LOW worker of its own node (the paper's reading). */
    public OtdParams(double highCpu, double lowCpu, long highQueue, long lowQueue, double thresholdAsc,
                     int maxExecutorsPerWorker, boolean mayTakeLastExecutor) {
        this(highCpu, lowCpu, highQueue, lowQueue, thresholdAsc, maxExecutorsPerWorker, mayTakeLastExecutor, true);
    }

    public OtdParams {
        if (!(0 <= lowCpu && lowCpu < highCpu && highCpu <= 1.0)) {
            throw new IllegalArgumentException("need 0 <= lowCpu < highCpu <= 1, got " + lowCpu + ", " + highCpu);
        }
        if (lowQueue < 0 || lowQueue >= highQueue) {
            throw new IllegalArgumentException("need 0 <= lowQueue < highQueue, got " + lowQueue + ", " + highQueue);
        }
        if (thresholdAsc < 0) {
            throw new IllegalArgumentException("thresholdAsc must be >= 0, got " + thresholdAsc);
        }
        if (maxExecutorsPerWorker < 0) {
            throw new IllegalArgumentException("maxExecutorsPerWorker must be >= 0, got " + maxExecutorsPerWorker);
        }
    }
}
