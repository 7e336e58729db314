package io.nonstopstorm.metrics.hook;

import io.nonstopstorm.metrics.doc.MetricsDocument;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sizes of this worker's handed-over task states, as the migration agent measures them on the executors'
 * threads, for the next metrics document to publish ({@code executors[].state}, SCHEMA.md). The scheduler
 * refuses a live move of a task whose published state is over the handoff limit before the routing switches
 * (docs/state-handoff.md, F2). One per worker JVM: the agent and the metrics hook meet only here.
 */
public final class MeasuredStateSizes {
    public static final MeasuredStateSizes THIS_WORKER = new MeasuredStateSizes();

    private final Map<Integer, MetricsDocument.StateSize> sizes = new ConcurrentHashMap<>();

    public void record(int task, MetricsDocument.StateSize size) {
        sizes.put(task, size);
    }

    /** The task left this worker, or its state is no longer measured. */
    public void forget(int task) {
        sizes.remove(task);
    }

    public Map<Integer, MetricsDocument.StateSize> snapshot() {
        return Map.copyOf(sizes);
    }
}
