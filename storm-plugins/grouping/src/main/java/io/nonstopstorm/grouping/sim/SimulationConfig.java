package io.nonstopstorm.grouping.sim;

import io.nonstopstorm.grouping.signal.DelegationPolicy;

/**
 * Everything a simulation run depends on besides the key trace. Time is virtual: one message arrives
 * per tick, so tick numbers and message indexes coincide while the stream lasts.
 *
 * @param sources          sources S; message i enters at source i mod S (shuffle into the sources)
 * @param capacities       worker capacities over time
 * @param load             target mean utilisation under perfectly proportional routing
 * @param epsilon          imbalance factor of PoRC, CH and CG
 * @param virtualWorkersPerWorker CG's initial VWs per worker
 * @param ringCopies       CH ring points per worker
 * @param delegation       CG worker delegation (time slot in ticks)
 * @param piggyback        true: signals ride on acks; false: signals reach every source at once
 * @param aggregationPeriod ticks between periodic aggregations of partial counts
 * @param sampleEvery      ticks per time-series window
 * @param seed             seeds hashing and randomness
 */
public record SimulationConfig(int sources, CapacityPlan capacities, double load, double epsilon,
                               int virtualWorkersPerWorker, int ringCopies, DelegationPolicy delegation,
                               boolean piggyback, long aggregationPeriod, long sampleEvery, long seed) {

    public SimulationConfig {
        if (sources <= 0) {
            throw new IllegalArgumentException("sources must be positive, got " + sources);
        }
        if (!(load > 0) || Double.isInfinite(load)) {
            throw new IllegalArgumentException("load must be > 0, got " + load);
        }
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        if (virtualWorkersPerWorker <= 0 || ringCopies <= 0) {
            throw new IllegalArgumentException("virtual workers per worker and ring copies must be positive");
        }
        if (aggregationPeriod <= 0 || sampleEvery <= 0) {
            throw new IllegalArgumentException("aggregation period and sample interval must be positive");
        }
    }

    public int workers() {
        return capacities.workers();
    }
}
