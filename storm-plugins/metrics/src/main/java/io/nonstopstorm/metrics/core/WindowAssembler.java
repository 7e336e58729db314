package io.nonstopstorm.metrics.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.nonstopstorm.metrics.cpu.ThreadCpuSampler;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import io.nonstopstorm.metrics.proc.ChildCpuSampler;
import io.nonstopstorm.metrics.proc.ProcParsers;
import io.nonstopstorm.wire.ExecutorId;

/** Window deltas -> the worker's document: rates per second, CPU in cores, sorted and rounded. Pure. */
public final class WindowAssembler {
    private WindowAssembler() {
    }

    public static MetricsDocument assemble(WindowInputs in) {
        if (in.windowNanos() <= 0) {
            throw new IllegalArgumentException("window must be positive, got " + in.windowNanos() + " ns");
        }
        double secs = in.windowNanos() / 1e9;
        List<MetricsDocument.Executor> executors = new ArrayList<>();
        for (Map.Entry<ExecutorId, List<Integer>> e : new TreeMap<>(in.executors()).entrySet()) {
            executors.add(executor(in, e.getKey(), e.getValue(), secs));
        }
        List<MetricsDocument.Pair> traffic = new ArrayList<>();
        for (Map.Entry<Long, Long> p : new TreeMap<>(in.pairTuples()).entrySet()) {
            if (p.getValue() > 0) {
                traffic.add(new MetricsDocument.Pair(PairKey.src(p.getKey()), PairKey.dst(p.getKey()),
                    p.getValue(), round(p.getValue() / secs)));
            }
        }
        traffic.sort((a, b) -> a.srcTask() != b.srcTask() ? Integer.compare(a.srcTask(), b.srcTask())
            : Integer.compare(a.dstTask(), b.dstTask()));
        List<MetricsDocument.Net> net = new ArrayList<>();
        for (Map.Entry<String, ProcParsers.NetBytes> n : in.node().netBytes().entrySet()) {
            net.add(new MetricsDocument.Net(n.getKey(), round(n.getValue().rx() / secs), round(n.getValue().tx() / secs)));
        }
        return new MetricsDocument(
            in.topologyId(),
            new MetricsDocument.Worker(in.host(), in.port(), in.pid(), in.startedAtMs(),
                in.processCpuNanos() == null ? null : round(in.processCpuNanos() / (double) in.windowNanos())),
            new MetricsDocument.Window(in.endMs(), round(secs), in.seq(), in.periodS()),
            new MetricsDocument.Node(in.node().cpuCount(), in.cpuMhz() == null ? null : round(in.cpuMhz()),
                in.node().busyCores() == null ? null : round(in.node().busyCores()), net),
            executors, traffic, in.components());
    }

    private static MetricsDocument.Executor executor(WindowInputs in, ExecutorId id, List<Integer> tasks, double secs) {
        long emitted = 0;
        long executed = 0;
        for (int t : tasks) {
            emitted += in.emitted().getOrDefault(t, 0L);
            executed += in.executed().getOrDefault(t, 0L);
        }
        ThreadCpuSampler.ExecutorThread thread = in.threads().get(id);
        Double cpu = thread == null || thread.cpuNanos() == null ? null : round(thread.cpuNanos() / (double) in.windowNanos());
        ChildCpuSampler.ChildCpu child = in.children().get(id);
        int childProcesses = child == null ? 0 : child.processes();
        Double childCpu = child == null ? Double.valueOf(0.0)
            : child.cpuTicks() == null ? null : round(child.cpuTicks() / (double) in.clockTicksPerSecond() / secs);
        QueueLevel q = in.queues().get(id);
        return new MetricsDocument.Executor(id, in.taskComponents().get(tasks.get(0)), List.copyOf(tasks), cpu,
            childProcesses, childCpu, q == null ? null : q.length(), q == null ? null : q.capacity(),
            round(emitted / secs), round(executed / secs), busy(in, tasks, secs), state(in, tasks));
    }

    /** The largest measured state of the executor's tasks (they move together), or null when none was measured. */
    static MetricsDocument.StateSize state(WindowInputs in, List<Integer> tasks) {
        MetricsDocument.StateSize out = null;
        for (int t : tasks) {
            out = MetricsDocument.StateSize.larger(out, in.stateSizes().get(t));
        }
        return out;
    }

    /**
     * Fraction of the window spent in execute: per task, executes x mean sampled execute time, summed over
     * the executor's tasks (they share its thread). Null when a task executed tuples but none was sampled;
     * 0 when nothing was executed.
     */
    static Double busy(WindowInputs in, List<Integer> tasks, double secs) {
        double busyMs = 0;
        for (int t : tasks) {
            long executed = in.executed().getOrDefault(t, 0L);
            if (executed == 0) {
                continue;
            }
            long samples = in.executeSamples().getOrDefault(t, 0L);
            if (samples == 0) {
                return null;
            }
            busyMs += executed * (in.executeSampleMs().getOrDefault(t, 0L) / (double) samples);
        }
        return round(busyMs / (secs * 1000));
    }

    /** Four decimals: well below any measurable difference, and documents stay short. */
    static double round(double v) {
        return Math.round(v * 1e4) / 1e4;
    }
}
