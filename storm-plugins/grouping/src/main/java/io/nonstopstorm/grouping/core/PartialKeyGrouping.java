package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.hash.Murmur3;
import io.nonstopstorm.grouping.hash.SaltedHasher;

/**
 * PKG: two hash functions give each key two candidate workers; the message goes to the candidate
 * with the smaller <em>local</em> load estimate (messages this source has sent it). A key lives on at
 * most two workers.
 */
public final class PartialKeyGrouping implements KeyRouter {
    private final int workers;
    private final int firstSeed;
    private final int secondSeed;
    private final long[] sent;

    /** The two hash functions are Murmur3 with {@code seed} and with a seed derived from it. */
    public PartialKeyGrouping(int workers, int seed) {
        this.workers = Checks.positive("workers", workers);
        this.firstSeed = seed;
        this.secondSeed = seed ^ 0x5bd1e995;
        this.sent = new long[workers];
    }

    @Override
    public int workerCount() {
        return workers;
    }

    @Override
    public int route(byte[] key) {
        int first = SaltedHasher.bucket(Murmur3.hash64(key, firstSeed), workers);
        int second = SaltedHasher.bucket(Murmur3.hash64(key, secondSeed), workers);
        int chosen = sent[second] < sent[first] ? second : first;
        sent[chosen]++;
        return chosen;
    }
}
