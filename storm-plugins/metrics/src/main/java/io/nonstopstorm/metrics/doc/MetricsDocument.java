package io.nonstopstorm.metrics.doc;

import io.nonstopstorm.wire.ExecutorId;
import java.util.List;

/**
 * One worker's metrics over one window: the document published to ZooKeeper. Its JSON form is
 * specified in SCHEMA.md (schema {@value #SCHEMA}, version {@value #VERSION}); nullable fields are
 * boxed. Rates are per second over the window; CPU is in cores (CPU seconds per second).
 */
public record MetricsDocument(String topologyId, Worker worker, Window window, Node node,
                              List<Executor> executors, List<Pair> traffic, List<Component> components) {
    public static final String SCHEMA = "nonstop.metrics.worker";
    /** Bump on any change that is not purely additive; readers skip versions they do not know. */
    public static final int VERSION = 1;

    public record Worker(String host, int port, long pid, long startedAtMs, Double cpuCores) {
    }

    public record Window(long endMs, double seconds, long seq, int periodS) {
    }

    public record Node(int cpuCount, Double cpuMhz, Double cpuBusyCores, List<Net> net) {
    }

    public record Net(String iface, double rxBytesPerS, double txBytesPerS) {
    }

    /**
     * @param busy fraction of the window the executor spent in {@code execute} (Storm UI's "capacity"),
     *             estimated from Storm's sampled execute times; null when it executed tuples but none was sampled
     */
    public record Executor(ExecutorId id, String component, List<Integer> tasks, Double cpuCores,
                           int childProcesses, Double childCpuCores, Integer queueLength, Integer queueCapacity,
                           double emittedPerS, double executedPerS, Double busy, StateSize state) {

        /** An executor whose state size is not known (its bolt hands no state over, or none was measured yet). */
        public Executor(ExecutorId id, String component, List<Integer> tasks, Double cpuCores, int childProcesses,
                        Double childCpuCores, Integer queueLength, Integer queueCapacity, double emittedPerS,
                        double executedPerS, Double busy) {
            this(id, component, tasks, cpuCores, childProcesses, childCpuCores, queueLength, queueCapacity,
                emittedPerS, executedPerS, busy, null);
        }

        /** An executor whose busy fraction is not known. */
        public Executor(ExecutorId id, String component, List<Integer> tasks, Double cpuCores, int childProcesses,
                        Double childCpuCores, Integer queueLength, Integer queueCapacity, double emittedPerS,
                        double executedPerS) {
            this(id, component, tasks, cpuCores, childProcesses, childCpuCores, queueLength, queueCapacity,
                emittedPerS, executedPerS, null);
        }
    }

    /**
     * The serialised size of a task's handed-over state, as the migration agent last measured it (Kryo, as a
     * move would send it). Measuring stops at the topology's handoff limit: then {@code overLimit} and
     * {@code bytes} is that limit plus one, a lower bound.
     */
    public record StateSize(long bytes, boolean overLimit, long measuredAtMs) {
        public StateSize {
            if (bytes < 0) {
                throw new IllegalArgumentException("a state size is >= 0 bytes, got " + bytes);
            }
        }

        /** The larger of two sizes (an executor's tasks are moved together): an over-limit one wins. */
        public static StateSize larger(StateSize a, StateSize b) {
            if (a == null || b == null) {
                return a == null ? b : a;
            }
            if (a.overLimit != b.overLimit) {
                return a.overLimit ? a : b;
            }
            return a.bytes >= b.bytes ? a : b;
        }
    }

    public record Pair(int srcTask, int dstTask, long tuples, double tuplesPerS) {
    }

    public record Component(String id, String type, List<Integer> tasks, List<Input> inputs) {
    }

    public record Input(String component, String stream, String grouping, List<String> fields) {
    }
}
