package io.nonstopstorm.grouping.core;

import java.util.random.RandomGenerator;

/**
 * PoTC: two uniformly random workers per <em>message</em> (not per key), the less loaded by local
 * estimate wins. Balances almost perfectly, but any key can reach every worker.
 */
public final class PowerOfTwoChoices implements KeyRouter {
    private final int workers;
    private final RandomGenerator random;
    private final long[] sent;

    public PowerOfTwoChoices(int workers, RandomGenerator random) {
        this.workers = Checks.positive("workers", workers);
        this.random = random;
        this.sent = new long[workers];
    }

    @Override
    public int workerCount() {
        return workers;
    }

    @Override
    public int route(byte[] key) {
        int first = random.nextInt(workers);
        int second = random.nextInt(workers);
        int chosen = sent[second] < sent[first] ? second : first;
        sent[chosen]++;
        return chosen;
    }
}
