package io.nonstopstorm.scheduling.core;

/**
 * What model-based allocation (MBA, Shukla &amp; Simmhan Alg. 3) decided for one component: the total
 * CPU and memory its threads need, in fractions of one slot, and its bundle size τ̂ (threads that reach
 * the best single-slot rate). The thread count is the component's executor count in the topology.
 *
 * @param cpu        c_i, fractions of a slot (a full bundle counts 1.0)
 * @param memory     m_i, fractions of a slot
 * @param bundleSize τ̂_i ≥ 1, or {@link #NO_BUNDLE} for components mapped only as a partial bundle
 *                   (the static source and sink)
 */
public record ComponentAllocation(double cpu, double memory, int bundleSize) {

    /** Marks a component that never takes an exclusive slot (τ̂ = ∞). */
    public static final int NO_BUNDLE = Integer.MAX_VALUE;

    public ComponentAllocation {
        if (cpu < 0 || memory < 0 || Double.isNaN(cpu) || Double.isNaN(memory)) {
            throw new IllegalArgumentException("cpu and memory must be >= 0, got " + cpu + ", " + memory);
        }
        if (bundleSize < 1) {
            throw new IllegalArgumentException("bundle size must be >= 1, got " + bundleSize);
        }
    }
}
