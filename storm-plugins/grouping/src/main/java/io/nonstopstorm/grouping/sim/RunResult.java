package io.nonstopstorm.grouping.sim;

import java.util.List;

/**
 * Outcome of simulating one scheme: a summary and a time series with one entry per window of
 * {@code sampleEvery} ticks. Utilisation = messages assigned / capacity (messages the worker could
 * have served) in the window; imbalance = max - average utilisation over workers.
 */
public record RunResult(String scheme, Summary summary, Series series) {

    /**
     * @param imbalanceMean            mean of the windowed imbalance over all windows
     * @param imbalanceMeanSecondHalf  same over the windows in the second half of the stream (steady state)
     * @param imbalanceFinal           last window's imbalance
     * @param utilisationSpreadMean    mean of the windowed max - min utilisation (the paper's Fig. 9/10 view)
     * @param cumulativeImbalanceFinal max - average of (all messages assigned / all capacity) at the end
     * @param memoryTotal              distinct keys per worker, summed
     * @param memoryNormalised         memoryTotal / distinct keys in the trace (KG = 1)
     * @param latencyMean              ticks from arrival to finish, all messages (queues drained at the end)
     * @param queueMax                 largest queue seen at a sample
     * @param queueSpreadMean          mean over samples of max - min queue length
     * @param drainTicks               ticks after the last arrival until every queue was empty
     * @param aggregationPartialEntries partial (key, count) entries sent by periodic aggregation
     * @param aggregationConsistent    merged partial counts equal the true per-key counts
     * @param signals                  load signals published by workers (CG)
     * @param virtualWorkerMoves       VW moves summed over sources (CG)
     * @param virtualWorkersFinal      VWs per worker in source 0's view at the end (CG)
     * @param sourcesDivergent         sources whose final VW table differs from source 0's (CG)
     */
    public record Summary(long messages, int workers, int sources, int distinctKeys,
                          double imbalanceMean, double imbalanceMeanSecondHalf, double imbalanceFinal,
                          double utilisationSpreadMean,
                          double cumulativeImbalanceFinal, long memoryTotal, double memoryNormalised,
                          double latencyMean, long latencyP50, long latencyP95, long latencyP99, long latencyMax,
                          int queueMax, double queueSpreadMean, long drainTicks,
                          long aggregationPartialEntries, boolean aggregationConsistent,
                          long signals, long virtualWorkerMoves, int[] virtualWorkersFinal, int sourcesDivergent) {
    }

    /**
     * Column-wise time series; entry i describes the window ending at tick {@code t[i]}.
     * {@code latencyMean}/{@code latencySpread} are null for windows in which nothing finished.
     * {@code virtualWorkers} is null unless the scheme is CG.
     */
    public record Series(List<Long> t, List<Double> imbalance, List<Double> cumulativeImbalance,
                         List<Double> utilisationSpread,
                         List<double[]> utilisation, List<int[]> queueLength, List<Integer> queueSpread,
                         List<Double> latencyMean, List<Double> latencySpread, List<Long> memory,
                         List<Long> signals, List<Long> virtualWorkerMoves, List<int[]> virtualWorkers) {
    }
}
