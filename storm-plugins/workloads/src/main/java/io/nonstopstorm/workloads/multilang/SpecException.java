package io.nonstopstorm.workloads.multilang;

/** A topology spec that cannot be built; the message names the component at fault. */
public final class SpecException extends IllegalArgumentException {
    public SpecException(String component, String problem) {
        super(component == null ? problem : "component '" + component + "': " + problem);
    }
}
