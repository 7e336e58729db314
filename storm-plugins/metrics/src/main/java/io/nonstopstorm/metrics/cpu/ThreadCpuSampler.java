package io.nonstopstorm.metrics.cpu;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import io.nonstopstorm.metrics.core.DeltaTracker;
import io.nonstopstorm.wire.ExecutorId;

/**
 * CPU time each executor thread used since the previous sample. Threads are keyed by JVM thread id, so an
 * executor whose thread was replaced (e.g. by a migration) counts the new thread from zero.
 */
public final class ThreadCpuSampler {
    /** One executor's thread in this sample; {@code cpuNanos} is null until a full window is known. */
    public record ExecutorThread(String threadName, String component, Long cpuNanos) {
    }

    private final ThreadSource source;
    private final DeltaTracker<Long> cpuByThread = new DeltaTracker<>(true);

    public ThreadCpuSampler(ThreadSource source) {
        this.source = source;
    }

    public Map<ExecutorId, ExecutorThread> sample() {
        Map<Long, Long> cpu = new HashMap<>();
        Map<ExecutorId, ThreadSource.ThreadReading> executorThreads = new HashMap<>();
        Map<ExecutorId, String> components = new HashMap<>();
        for (ThreadSource.ThreadReading t : source.threads()) {
            if (t.cpuNanos() >= 0) {
                cpu.put(t.id(), t.cpuNanos());
            }
            Optional<ExecutorThreadName> name = ExecutorThreadName.parse(t.name());
            if (name.isPresent()) {
                executorThreads.put(name.get().executor(), t);
                components.put(name.get().executor(), name.get().component());
            }
        }
        Map<Long, Long> deltas = cpuByThread.update(cpu);
        Map<ExecutorId, ExecutorThread> out = new HashMap<>();
        for (Map.Entry<ExecutorId, ThreadSource.ThreadReading> e : executorThreads.entrySet()) {
            ThreadSource.ThreadReading t = e.getValue();
            out.put(e.getKey(), new ExecutorThread(t.name(), components.get(e.getKey()), deltas.get(t.id())));
        }
        return out;
    }
}
