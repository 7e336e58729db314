package io.nonstopstorm.grouping.core;

/** PoRC used directly as a grouping: each worker is one bin. */
public final class PowerOfRandomChoicesRouter implements KeyRouter {
    private final PowerOfRandomChoices porc;

    public PowerOfRandomChoicesRouter(int workers, double epsilon, int seed) {
        this.porc = new PowerOfRandomChoices(workers, epsilon, seed);
    }

    @Override
    public int workerCount() {
        return porc.bins();
    }

    @Override
    public int route(byte[] key) {
        return porc.choose(key);
    }
}
