package io.nonstopstorm.metrics.core;

/** Storm reserves ids starting with "__" for its own components and streams (acker, system, metrics, ticks). */
public final class SystemIds {
    private SystemIds() {
    }

    public static boolean isSystem(String id) {
        return id != null && id.startsWith("__");
    }
}
