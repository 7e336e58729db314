package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.signal.DelegationPolicy;

/**
 * Defaults of the Storm adapters and the simulator. The paper's values were lost in extraction; these are our choices,
 * backed by the simulator sweep reported in the module's README.
 */
public final class GroupingDefaults {
    /** PoRC / CH imbalance factor: capacity of a bin is (1 + EPSILON) x average. */
    public static final double EPSILON = 0.2;
    /** Virtual workers each worker starts with in CG. */
    public static final int VIRTUAL_WORKERS_PER_WORKER = 10;
    /** Ring points per worker in CH. */
    public static final int RING_COPIES_PER_WORKER = 10;
    /** Worker delegation: signal INCREASE below this utilisation. */
    public static final double IDLE_BELOW = DelegationPolicy.DEFAULT_IDLE_BELOW;
    /** Worker delegation: signal DECREASE above this utilisation. */
    public static final double BUSY_ABOVE = DelegationPolicy.DEFAULT_BUSY_ABOVE;
    /** Worker delegation: at most one signal per worker per time slot, in milliseconds. */
    public static final long TIME_SLOT_MILLIS = 60_000;

    private GroupingDefaults() {
    }
}
