package io.nonstopstorm.scheduling.core;

/**
 * The Elastic Allocator's node classes: light below 40 %, moderate from 40 % to below 80 %, heavy from
 * 80 % on (SOSE'14 §IV.D).
 */
public enum ElasticLoadClass {
    LIGHT, MODERATE, HEAVY;

    public static final double LIGHT_BELOW = 0.40;
    public static final double MODERATE_BELOW = 0.80;

    /** @param utilisation a fraction of the node (1.0 = fully used) */
    public static ElasticLoadClass of(double utilisation) {
        if (utilisation < LIGHT_BELOW) {
            return LIGHT;
        }
        return utilisation < MODERATE_BELOW ? MODERATE : HEAVY;
    }
}
