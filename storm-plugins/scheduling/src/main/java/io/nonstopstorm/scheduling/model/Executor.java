package io.nonstopstorm.scheduling.model;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Objects;

/** An executor and the component whose tasks it runs. */
public record Executor(ExecutorId id, String component) {

    public Executor {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(component, "component");
    }
}
