package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.hash.SaltedHasher;

/** KG: {@code H(key) mod n}; one worker per key, no state. */
public final class KeyGrouping implements KeyRouter {
    private final int workers;
    private final SaltedHasher hasher;

    public KeyGrouping(int workers, int seed) {
        this.workers = Checks.positive("workers", workers);
        this.hasher = new SaltedHasher(seed);
    }

    @Override
    public int workerCount() {
        return workers;
    }

    @Override
    public int route(byte[] key) {
        return hasher.choice(key, 0, workers);
    }
}
