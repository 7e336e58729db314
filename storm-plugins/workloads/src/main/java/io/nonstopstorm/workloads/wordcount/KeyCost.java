package io.nonstopstorm.workloads.wordcount;

import java.nio.charset.StandardCharsets;

/**
 * The compute-heavy word count's per-key cost (N-Storm's OTD experiment: Bolt 1 computes harmonic
 * numbers and "the distribution of the calculation in the key domain" changes randomly over time).
 * A word falls into one of {@code classes} key classes (FNV-1a hash); every {@code driftMs} a new
 * epoch draws each class a weight in 1..spread from (seed, epoch, class); the word costs
 * H(base * weight). Deterministic given the wall clock, so every task agrees on the current epoch
 * without talking. The Python topologies compute exactly the same numbers (topologies/common/cost.py).
 */
public final class KeyCost implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final int base;
    private final int classes;
    private final int spread;
    private final long driftMs;
    private final long seed;

    public KeyCost(int base, int classes, int spread, long driftMs, long seed) {
        if (base < 0 || classes < 1 || spread < 1 || driftMs < 1) {
            throw new IllegalArgumentException("heavy cost needs base >= 0, classes >= 1, spread >= 1, drift >= 1 ms");
        }
        this.base = base;
        this.classes = classes;
        this.spread = spread;
        this.driftMs = driftMs;
        this.seed = seed;
    }

    /** 32-bit FNV-1a of the UTF-8 bytes, as an unsigned value. */
    public static long fnv1a(String s) {
        int h = 0x811c9dc5;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x01000193;
        }
        return h & 0xffffffffL;
    }

    public long epoch(long nowMs) {
        return Math.floorDiv(nowMs, driftMs);
    }

    public int weight(String key, long epoch) {
        long cls = fnv1a(key) % classes;
        return 1 + (int) (fnv1a(seed + ":" + epoch + ":" + cls) % spread);
    }

    /** Harmonic-number terms to compute for this key now. */
    public int iterations(String key, long nowMs) {
        return base * weight(key, epoch(nowMs));
    }

    /** H(n) = 1 + 1/2 + ... + 1/n, the work itself. */
    public static double harmonic(int n) {
        double h = 0;
        for (int i = 1; i <= n; i++) {
            h += 1.0 / i;
        }
        return h;
    }
}
