package io.nonstopstorm.metrics.core;

import java.util.List;
import java.util.Map;
import io.nonstopstorm.metrics.cpu.ThreadCpuSampler;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import io.nonstopstorm.metrics.proc.ChildCpuSampler;
import io.nonstopstorm.metrics.proc.NodeSampler;
import io.nonstopstorm.wire.ExecutorId;

/**
 * Everything one window's document is made of, as deltas over the window. Plain data, so that the
 * assembly (rates, grouping, rounding) is a pure function.
 *
 * @param executors    executor -> its tasks (of registered user tasks only)
 * @param pairTuples   PairKey -> tuples sent in the window
 * @param processCpuNanos null until a full window is known
 * @param executeSamples  task -> executes whose duration Storm sampled in the window
 * @param executeSampleMs task -> summed duration of those sampled executes, ms
 * @param stateSizes      task -> the size of its handed-over state, as last measured (tasks measured only)
 */
public record WindowInputs(
    String topologyId, String host, int port, long pid, long startedAtMs,
    long endMs, long windowNanos, long seq, int periodS,
    Map<Integer, String> taskComponents,
    Map<ExecutorId, List<Integer>> executors,
    Map<Integer, Long> emitted, Map<Integer, Long> executed, Map<Long, Long> pairTuples,
    Map<ExecutorId, ThreadCpuSampler.ExecutorThread> threads,
    Map<ExecutorId, ChildCpuSampler.ChildCpu> children, int clockTicksPerSecond,
    Map<ExecutorId, QueueLevel> queues,
    Long processCpuNanos, NodeSampler.NodeWindow node, Double cpuMhz,
    List<MetricsDocument.Component> components,
    Map<Integer, Long> executeSamples, Map<Integer, Long> executeSampleMs,
    Map<Integer, MetricsDocument.StateSize> stateSizes) {

    /** Inputs without execute samples: every executor's {@code busy} is unknown (or 0 when it executed nothing). */
    public WindowInputs(
        String topologyId, String host, int port, long pid, long startedAtMs,
        long endMs, long windowNanos, long seq, int periodS,
        Map<Integer, String> taskComponents,
        Map<ExecutorId, List<Integer>> executors,
        Map<Integer, Long> emitted, Map<Integer, Long> executed, Map<Long, Long> pairTuples,
        Map<ExecutorId, ThreadCpuSampler.ExecutorThread> threads,
        Map<ExecutorId, ChildCpuSampler.ChildCpu> children, int clockTicksPerSecond,
        Map<ExecutorId, QueueLevel> queues,
        Long processCpuNanos, NodeSampler.NodeWindow node, Double cpuMhz,
        List<MetricsDocument.Component> components) {
        this(topologyId, host, port, pid, startedAtMs, endMs, windowNanos, seq, periodS, taskComponents, executors,
            emitted, executed, pairTuples, threads, children, clockTicksPerSecond, queues, processCpuNanos, node, cpuMhz,
            components, Map.of(), Map.of(), Map.of());
    }
}
