package io.nonstopstorm.metrics.core;

/** A (source task, destination task) pair packed into one long, for maps of per-pair counts. */
public final class PairKey {
    private PairKey() {
    }

    public static long of(int src, int dst) {
        return ((long) src << 32) | (dst & 0xffffffffL);
    }

    public static int src(long key) {
        return (int) (key >> 32);
    }

    public static int dst(long key) {
        return (int) key;
    }
}
