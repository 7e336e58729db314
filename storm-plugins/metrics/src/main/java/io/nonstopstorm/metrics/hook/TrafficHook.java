package io.nonstopstorm.metrics.hook;

import java.util.Collections;
import java.util.Map;
import io.nonstopstorm.metrics.WorkerMetrics;
import io.nonstopstorm.metrics.core.SystemIds;
import io.nonstopstorm.metrics.core.TaskCounters;
import org.apache.storm.Constants;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.BoltExecuteInfo;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.task.TopologyContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installed on every task through {@code topology.auto.task.hooks}: counts the task's user-stream emits
 * per destination task and its executes, and registers them with the worker's metrics loop. Storm's own
 * components and streams (ids starting with "__") are left out. Any failure disables the hook for the
 * task and is logged; it never reaches the topology.
 */
public class TrafficHook extends BaseTaskHook {
    private static final Logger LOG = LoggerFactory.getLogger(TrafficHook.class);

    // Set in prepare() on the worker's main thread before the executor thread starts, read on the hot path.
    private TaskCounters counters;
    private String topologyId;
    private int port;
    private boolean holding;

    public TrafficHook() {
    }

    TrafficHook(TaskCounters counters) {
        this.counters = counters;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context) {
        String component = context.getThisComponentId();
        if (Constants.SYSTEM_COMPONENT_ID.equals(component)) {
            holdWorker(conf, context);
            return;
        }
        if (SystemIds.isSystem(component)) {
            return;
        }
        try {
            int maxTask = Collections.max(context.getTaskToComponent().keySet());
            TaskCounters c = new TaskCounters(context.getThisTaskId(), component, maxTask);
            topologyId = context.getStormId();
            port = context.getThisWorkerPort();
            WorkerMetrics.register(topologyId, port, c, () -> StormWorkerSetup.create(conf, context));
            counters = c;
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("metrics hook disabled for task {} ({}): {}", context.getThisTaskId(), component, e.toString(), e);
        }
    }

    @Override
    public void emit(EmitInfo info) {
        TaskCounters c = counters;
        if (c != null && !SystemIds.isSystem(info.stream) && info.outTasks != null) {
            c.countEmit(info.outTasks);
        }
    }

    @Override
    public void boltExecute(BoltExecuteInfo info) {
        TaskCounters c = counters;
        if (c != null && !SystemIds.isSystem(info.tuple.getSourceStreamId())) {
            c.countExecuted();
            if (info.executeLatencyMs != null) {
                c.countExecuteSample(info.executeLatencyMs);
            }
        }
    }

    /** Every worker runs one __system task, from its start to its shutdown: it holds the worker's loop. */
    private void holdWorker(Map<String, Object> conf, TopologyContext context) {
        try {
            topologyId = context.getStormId();
            port = context.getThisWorkerPort();
            WorkerMetrics.hold(topologyId, port, () -> StormWorkerSetup.create(conf, context));
            holding = true;
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("metrics loop not held by the worker's system task: {}", e.toString(), e);
        }
    }

    @Override
    public void cleanup() {
        TaskCounters c = counters;
        counters = null;
        if (c != null && topologyId != null) {
            WorkerMetrics.unregister(topologyId, port, c);
        }
        if (holding) {
            holding = false;
            WorkerMetrics.release(topologyId, port);
        }
    }
}
