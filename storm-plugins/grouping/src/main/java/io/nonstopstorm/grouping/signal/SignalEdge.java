package io.nonstopstorm.grouping.signal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Everything a signal path may need to know about the stream edge it serves: the channel name, the
 * delegation policy configured on the grouping, and where the edge lives (topology id, target
 * component and its tasks, the topology conf), so that a path can find the workers' load reports.
 *
 * @param targetTasks the target component's tasks; worker index = position in ascending order
 */
public record SignalEdge(String channel, DelegationPolicy policy, String topologyId, String targetComponent,
                         List<Integer> targetTasks, Map<String, Object> conf) {

    public SignalEdge {
        if (targetTasks == null || targetTasks.isEmpty()) {
            throw new IllegalArgumentException("edge " + channel + " has no target tasks");
        }
        List<Integer> sorted = new ArrayList<>(targetTasks);
        Collections.sort(sorted);
        targetTasks = List.copyOf(sorted);
        conf = conf == null ? Map.of() : Collections.unmodifiableMap(conf);
    }
}
