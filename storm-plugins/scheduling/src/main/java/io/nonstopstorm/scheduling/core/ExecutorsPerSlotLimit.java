package io.nonstopstorm.scheduling.core;

/**
 * Aniello et al.'s balance knob α: the maximum number of executors one slot may hold,
 * {@code M(α) = ⌈E/W⌉ + α·(E − W + 1 − ⌈E/W⌉)}.
 *
 * <p>The seed's text lost the bracket types. We read {@code E/W} with a ceiling (the smallest M that
 * fits E executors in W slots), and also round the α term up, so that any α &gt; 0 loosens the limit
 * (this matches the authors' public code; cross-check only). α = 0 gives the even split, α = 1 gives
 * {@code E − W + 1} (every slot but one holds a single executor).
 */
public final class ExecutorsPerSlotLimit {

    private ExecutorsPerSlotLimit() {
    }

    /**
     * @param alpha     in [0, 1]
     * @param executors E ≥ 1
     * @param workers   W, the slots actually used (already {@code min(W, E)}), 1 ≤ W ≤ E
     */
    public static int of(double alpha, int executors, int workers) {
        requireUnit("alpha", alpha);
        if (workers < 1 || executors < workers) {
            throw new IllegalArgumentException("need 1 <= workers <= executors, got workers=" + workers
                    + " executors=" + executors);
        }
        int even = ceilDiv(executors, workers);
        int max = executors - workers + 1;
        return even + (int) Math.ceil(alpha * (max - even) - 1e-9);
    }

    static void requireUnit(String name, double v) {
        if (!(v >= 0 && v <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0,1], got " + v);
        }
    }

    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
