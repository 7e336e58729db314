package io.nonstopstorm.workloads;

import java.util.Map;

/** A workload whose name, description and conf defaults are fixed when it is made. */
public abstract class DescribedWorkload implements Workload {
    private final String name;
    private final String description;
    private final Map<String, Object> defaults;

    protected DescribedWorkload(String name, String description, Map<String, Object> defaults) {
        this.name = name;
        this.description = description;
        this.defaults = Map.copyOf(defaults);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final Map<String, Object> defaults() {
        return defaults;
    }
}
