package io.nonstopstorm.workloads.multilang;

import java.util.List;
import java.util.Map;

/**
 * One spout or bolt of a topology spec. Either a shell component ({@code command} = the argv that
 * runs it, {@code streams} = its declared output streams and fields) or a Java component
 * ({@code className} + {@code constructorArgs}; it declares its own outputs).
 */
public record ComponentSpec(String id, boolean spout, List<String> command, String className,
                            List<Object> constructorArgs, Map<String, List<String>> streams, int parallelism,
                            Map<String, Object> config) {
    public boolean shell() {
        return command != null;
    }
}
