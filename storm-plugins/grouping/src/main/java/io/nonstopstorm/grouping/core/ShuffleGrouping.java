package io.nonstopstorm.grouping.core;

/**
 * SG: round-robin over workers, ignoring the key. Each source starts at its own offset so that many
 * sources do not hit worker 0 in lock-step.
 */
public final class ShuffleGrouping implements KeyRouter {
    private final int workers;
    private int next;

    public ShuffleGrouping(int workers, int startOffset) {
        this.workers = Checks.positive("workers", workers);
        this.next = Math.floorMod(startOffset, workers);
    }

    @Override
    public int workerCount() {
        return workers;
    }

    @Override
    public int route(byte[] key) {
        int chosen = next;
        next = (next + 1) % workers;
        return chosen;
    }
}
