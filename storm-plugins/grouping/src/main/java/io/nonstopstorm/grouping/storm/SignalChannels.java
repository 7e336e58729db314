package io.nonstopstorm.grouping.storm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Naming shared by the two ends of a CG signal path in Storm: the grouping and the worker bolts. */
public final class SignalChannels {
    private SignalChannels() {
    }

    /** Channel name of the edge {@code sourceComponent:streamId -> targetComponent}. */
    public static String name(String sourceComponent, String streamId, String targetComponent) {
        return sourceComponent + ":" + streamId + "->" + targetComponent;
    }

    /**
     * A worker bolt's index on the edge: the position of its task among its component's tasks sorted
     * ascending, which is how the groupings number workers.
     */
    public static int workerIndex(List<Integer> componentTasks, int task) {
        List<Integer> sorted = new ArrayList<>(componentTasks);
        Collections.sort(sorted);
        int index = sorted.indexOf(task);
        if (index < 0) {
            throw new IllegalArgumentException("task " + task + " is not among " + sorted);
        }
        return index;
    }
}
