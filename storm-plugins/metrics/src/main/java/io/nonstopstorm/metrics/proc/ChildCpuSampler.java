package io.nonstopstorm.metrics.proc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import io.nonstopstorm.metrics.core.DeltaTracker;
import io.nonstopstorm.wire.ExecutorId;

/**
 * CPU of the child processes an executor started, e.g. the Python process of a ShellBolt. A ShellBolt
 * launches its process from prepare(), on the executor thread, and Linux lists a process's children per
 * forking thread in /proc/[pid]/task/[tid]/children. The executor's native thread is found by its
 * name: the JVM names native threads after the Java name (first 15 characters, in comm), and Storm's
 * {@code Thread-<n>-} prefix makes that unique.
 */
public final class ChildCpuSampler {
    private static final int COMM_CHARS = 15;

    /** Children of one executor in this window; {@code cpuTicks} is null until a full window is known. */
    public record ChildCpu(int processes, Long cpuTicks) {
    }

    private final ProcFs proc;
    private final String self;
    private final Map<String, String> tidByThreadName = new HashMap<>();
    private final DeltaTracker<Long> ticksByPid = new DeltaTracker<>(true);

    /** @param self the worker's directory under the proc root: its pid (or "self") */
    public ChildCpuSampler(ProcFs proc, String self) {
        this.proc = proc;
        this.self = self;
    }

    /** @param threadNames executor -> the Java name of its thread; executors without children are omitted */
    public Map<ExecutorId, ChildCpu> sample(Map<ExecutorId, String> threadNames) {
        Map<ExecutorId, List<Long>> childrenOf = new HashMap<>();
        Map<Long, Long> ticks = new HashMap<>();
        for (Map.Entry<ExecutorId, String> e : threadNames.entrySet()) {
            String tid = tid(e.getValue());
            if (tid == null) {
                continue;
            }
            List<Long> children = ProcParsers.pids(proc.read(self + "/task/" + tid + "/children").orElse(""));
            if (children.isEmpty()) {
                continue;
            }
            childrenOf.put(e.getKey(), children);
            for (long pid : children) {
                OptionalLong t = ProcParsers.processCpuTicks(proc.read(pid + "/stat").orElse(""));
                if (t.isPresent()) {
                    ticks.put(pid, t.getAsLong());
                }
            }
        }
        boolean full = ticksByPid.hasBaseline();
        Map<Long, Long> deltas = ticksByPid.update(ticks);
        Map<ExecutorId, ChildCpu> out = new HashMap<>();
        for (Map.Entry<ExecutorId, List<Long>> e : childrenOf.entrySet()) {
            long sum = 0;
            for (long pid : e.getValue()) {
                sum += deltas.getOrDefault(pid, 0L);
            }
            out.put(e.getKey(), new ChildCpu(e.getValue().size(), full ? sum : null));
        }
        return out;
    }

    private String tid(String threadName) {
        String expected = threadName.length() > COMM_CHARS ? threadName.substring(0, COMM_CHARS) : threadName;
        String cached = tidByThreadName.get(threadName);
        if (cached != null && proc.read(self + "/task/" + cached + "/comm").orElse("").trim().equals(expected)) {
            return cached;
        }
        tidByThreadName.remove(threadName);
        String found = null;
        for (String tid : proc.list(self + "/task")) {
            if (proc.read(self + "/task/" + tid + "/comm").orElse("").trim().equals(expected)) {
                if (found != null) {
                    return null;  // ambiguous: better no number than a wrong one
                }
                found = tid;
            }
        }
        if (found != null) {
            tidByThreadName.put(threadName, found);
        }
        return found;
    }
}
