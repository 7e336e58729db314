package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.hash.SaltedHasher;

/**
 * PoRC: maps keys onto {@code bins} equal-sized bins (virtual workers) with a soft capacity of
 * {@code (1+eps) * average load}, the average counting the current message and recomputed per message.
 * A key is tried on its principal bin (unsalted hash), then on salted re-hashes until a bin below
 * capacity turns up. Light keys therefore stay on one bin; only heavy keys spill, onto few bins.
 *
 * <p>Invariant: a bin is filled only while strictly below capacity, so no bin ever exceeds
 * {@code (1+eps) * average + 1}. The probe sequence is random and ends with probability 1 (the
 * least-loaded bin is always below capacity); as a safety net not in the paper, after
 * {@link #maxProbes()} probes the globally least-loaded bin is taken, which keeps the invariant.
 *
 * <p>Loads are local to the instance, i.e. to one source (PKG-style local load estimation).
 */
public final class PowerOfRandomChoices {
    private final int bins;
    private final double epsilon;
    private final SaltedHasher hasher;
    private final int maxProbes;
    private final long[] load;
    private long total;
    private long fallbacks;

    public PowerOfRandomChoices(int bins, double epsilon, int seed) {
        this.bins = Checks.positive("bins", bins);
        this.epsilon = Checks.nonNegative("epsilon", epsilon);
        this.hasher = new SaltedHasher(seed);
        this.maxProbes = 4 * bins + 16;
        this.load = new long[bins];
    }

    public int bins() {
        return bins;
    }

    public double epsilon() {
        return epsilon;
    }

    /** Probes tried before falling back to the least-loaded bin. */
    public int maxProbes() {
        return maxProbes;
    }

    /** The key's principal bin: its first choice, whatever the loads. */
    public int principalBin(byte[] key) {
        return hasher.choice(key, 0, bins);
    }

    /** Chooses the bin for one message with this key and counts the message on it. */
    public int choose(byte[] key) {
        total++;
        double capacity = (1 + epsilon) * total / bins;
        for (int salt = 0; salt < maxProbes; salt++) {
            int bin = hasher.choice(key, salt, bins);
            if (load[bin] < capacity) {
                load[bin]++;
                return bin;
            }
        }
        fallbacks++;
        int least = 0;
        for (int bin = 1; bin < bins; bin++) {
            if (load[bin] < load[least]) {
                least = bin;
            }
        }
        load[least]++;
        return least;
    }

    /** Messages counted on the bin so far. */
    public long load(int bin) {
        return load[bin];
    }

    /** Messages routed so far. */
    public long total() {
        return total;
    }

    /** How often the probe cap was hit (expected to stay 0 for sensible eps). */
    public long fallbacks() {
        return fallbacks;
    }
}
