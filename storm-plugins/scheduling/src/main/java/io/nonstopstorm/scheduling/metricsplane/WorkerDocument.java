package io.nonstopstorm.scheduling.metricsplane;

import io.nonstopstorm.wire.ExecutorId;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The parts of one worker's metrics document (storm-plugins/metrics/SCHEMA.md, version 1) the
 * schedulers use. {@code null} values of the document ("not known in this window") are empty optionals.
 *
 * @param topologyId  the topology the worker runs
 * @param host        the worker's advertised host
 * @param port        its slot port
 * @param windowEndMs end of the measurement window, ms since the epoch
 * @param periodS     the publishing period, seconds
 * @param windowSeq   1, 2, 3, … per worker instance (window 1 covers the worker's start-up)
 * @param cpuCores    CPU of the worker JVM in the window (all its threads, not its child processes)
 * @param node        the node section
 * @param executors   the worker's user executors
 * @param traffic     tuples/s from tasks of this worker to any task
 */
public record WorkerDocument(String topologyId, String host, int port, long windowEndMs, int periodS, long windowSeq,
                             OptionalDouble cpuCores, NodeSection node, List<ExecutorCpu> executors,
                             List<TaskFlow> traffic) {

    public WorkerDocument {
        executors = List.copyOf(executors);
        traffic = List.copyOf(traffic);
    }

    /**
     * @param cpuCount          CPUs of the node
     * @param cpuMhz            mean core clock, when the kernel reports it
     * @param busyCores         whole-node CPU in use
     * @param netBytesPerSecond max(received, sent) bytes/s summed over the non-loopback interfaces
     */
    public record NodeSection(int cpuCount, OptionalDouble cpuMhz, OptionalDouble busyCores, double netBytesPerSecond) {
    }

    /**
     * An executor's CPU in cores: its thread plus the processes it started (multilang), when known.
     *
     * @param childCores  CPU of its child processes alone (0 when unknown or none)
     * @param queueLength tuples waiting in its receive queue at the end of the window, when known
     */
    public record ExecutorCpu(ExecutorId id, String component, OptionalDouble cores, double childCores,
                              OptionalLong queueLength) {
    }

    public record TaskFlow(int srcTask, int dstTask, double tuplesPerSecond) {
    }

    /** The worker as the znode names it: {@code host-port}. */
    public String workerName() {
        return host + "-" + port;
    }

    /** The worker's load: its JVM's CPU plus its executors' child processes, when the JVM figure is known. */
    public OptionalDouble loadCores() {
        if (cpuCores.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(cpuCores.getAsDouble() + executors.stream().mapToDouble(ExecutorCpu::childCores).sum());
    }

    /** Tuples waiting in the receive queues of its executors (unknown lengths count as 0). */
    public long queueLength() {
        return executors.stream().mapToLong(e -> e.queueLength().orElse(0)).sum();
    }

    /** Start of the measurement window (end minus the period), ms since the epoch. */
    public long windowStartMs() {
        return windowEndMs - 1000L * periodS;
    }

    public Optional<ExecutorCpu> executor(ExecutorId id) {
        return executors.stream().filter(e -> e.id().equals(id)).findFirst();
    }
}
