package io.nonstopstorm.metrics.proc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * CPU and network of the node the worker runs on, per window (/proc/stat, /proc/net/dev). The node's CPUs
 * are those the worker may run on (/proc/self/status, inherited from its supervisor): all of the
 * machine's, or the CPUs a node pinned to part of a machine was given.
 */
public final class NodeSampler {
    /** busyCores is null (and net empty) until a full window is known. */
    public record NodeWindow(int cpuCount, Double busyCores, Map<String, ProcParsers.NetBytes> netBytes) {
    }

    private final ProcFs proc;
    private ProcParsers.CpuTimes lastCpu;
    private Map<String, ProcParsers.NetBytes> lastNet;

    public NodeSampler(ProcFs proc) {
        this.proc = proc;
    }

    public OptionalDouble cpuMhz() {
        return ProcParsers.cpuMhz(proc.read("cpuinfo").orElse(""));
    }

    public NodeWindow sample() {
        Set<Integer> allowed = proc.read("self/status").map(ProcParsers::cpusAllowed).orElse(Set.of());
        ProcParsers.CpuTimes cpu = proc.read("stat").map(st -> ProcParsers.cpuTimes(st, allowed)).orElse(null);
        Map<String, ProcParsers.NetBytes> net = ProcParsers.netDev(proc.read("net/dev").orElse(""));
        Double busy = null;
        if (cpu != null && lastCpu != null && cpu.total() > lastCpu.total()) {
            double dTotal = cpu.total() - lastCpu.total();
            double dIdle = Math.max(0, cpu.idle() - lastCpu.idle());
            busy = Math.max(0, (dTotal - dIdle) / dTotal) * cpu.cpuCount();
        }
        Map<String, ProcParsers.NetBytes> dNet = new LinkedHashMap<>();
        if (lastNet != null) {
            for (Map.Entry<String, ProcParsers.NetBytes> e : net.entrySet()) {
                ProcParsers.NetBytes before = lastNet.get(e.getKey());
                if (before != null) {
                    ProcParsers.NetBytes now = e.getValue();
                    dNet.put(e.getKey(), new ProcParsers.NetBytes(Math.max(0, now.rx() - before.rx()),
                                                                   Math.max(0, now.tx() - before.tx())));
                }
            }
        }
        int cpus = cpu != null ? cpu.cpuCount() : Runtime.getRuntime().availableProcessors();
        lastCpu = cpu;
        lastNet = net;
        return new NodeWindow(cpus, busy, dNet);
    }
}
