package io.nonstopstorm.workloads.linear;

/** Per-tuple CPU cost: keeps the thread busy for a given time (the Python stages do the same). */
public final class CpuBurn {
    private CpuBurn() {
    }

    /** Spins for {@code micros} microseconds; returns a value derived from the work. */
    public static long spinMicros(long micros) {
        if (micros <= 0) {
            return 0;
        }
        long end = System.nanoTime() + micros * 1000;
        long x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 64; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        return x;
    }
}
