package io.nonstopstorm.workloads.multilang;

import java.util.List;

/** A subscription: {@code to} consumes stream {@code streamId} of {@code from} with a grouping. */
public record StreamSpec(String from, String to, String streamId, String grouping, List<String> fields,
                         String customClass, List<Object> customArgs) {
}
