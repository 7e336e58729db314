package io.nonstopstorm.metrics.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.nonstopstorm.metrics.cpu.ThreadCpuSampler;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import io.nonstopstorm.metrics.proc.ChildCpuSampler;
import io.nonstopstorm.metrics.proc.NodeSampler;
import io.nonstopstorm.metrics.proc.ProcParsers;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

class WindowAssemblerTest {
    private static final long FOUR_S = 4_000_000_000L;

    private static WindowInputs inputs(Map<ExecutorId, List<Integer>> executors, Map<Long, Long> pairs,
                                       Map<ExecutorId, ThreadCpuSampler.ExecutorThread> threads,
                                       Map<ExecutorId, ChildCpuSampler.ChildCpu> children,
                                       Map<ExecutorId, QueueLevel> queues, Long processCpu) {
        Map<String, ProcParsers.NetBytes> net = new LinkedHashMap<>();
        net.put("lo", new ProcParsers.NetBytes(4000, 2000));
        return new WindowInputs("t-1", "h1", 6700, 42, 1000, 9000, FOUR_S, 3, 4,
            Map.of(1, "a", 2, "a", 3, "b"), executors,
            Map.of(1, 400L, 2, 40L), Map.of(3, 800L), pairs, threads, children, 100, queues, processCpu,
            new NodeSampler.NodeWindow(2, 1.5, net), 2500.0, List.of());
    }

    @Test
    void ratesAreWindowAveragesAndCpuIsInCores() {
        ExecutorId ea = new ExecutorId(1, 2);
        ExecutorId eb = ExecutorId.single(3);
        MetricsDocument d = WindowAssembler.assemble(inputs(
            Map.of(ea, List.of(1, 2), eb, List.of(3)),
            Map.of(PairKey.of(2, 3), 40L, PairKey.of(1, 3), 400L, PairKey.of(1, 1), 0L),
            Map.of(ea, new ThreadCpuSampler.ExecutorThread("Thread-1-a-executor[1, 2]", "a", 1_000_000_000L)),
            Map.of(eb, new ChildCpuSampler.ChildCpu(1, 200L)),
            Map.of(eb, new QueueLevel(7, 1024)), 3_000_000_000L));

        assertEquals(List.of(new MetricsDocument.Pair(1, 3, 400, 100.0), new MetricsDocument.Pair(2, 3, 40, 10.0)),
            d.traffic(), "sorted, zero pairs omitted, tuples / seconds");
        MetricsDocument.Executor a = d.executors().get(0);
        assertEquals(ea, a.id());
        assertEquals(110.0, a.emittedPerS(), "both tasks of the executor");
        assertEquals(0.25, a.cpuCores());
        assertEquals(0.0, a.childCpuCores());
        assertNull(a.queueLength());
        MetricsDocument.Executor b = d.executors().get(1);
        assertEquals("b", b.component());
        assertEquals(200.0, b.executedPerS());
        assertNull(b.cpuCores(), "no thread seen: unknown, not zero");
        assertEquals(0.5, b.childCpuCores(), "200 ticks at 100/s over 4 s");
        assertEquals(1, b.childProcesses());
        assertEquals(7, b.queueLength());
        assertEquals(0.75, d.worker().cpuCores());
        assertEquals(4.0, d.window().seconds());
        assertEquals(List.of(new MetricsDocument.Net("lo", 1000.0, 500.0)), d.node().net());
        assertEquals(1.5, d.node().cpuBusyCores());
    }

    @Test
    void unknownProcessCpuStaysUnknownAndValuesAreRounded() {
        ExecutorId e = ExecutorId.single(3);
        WindowInputs in = new WindowInputs("t", "h", 1, 1, 0, 0, 3_000_000_000L, 1, 3, Map.of(3, "b"),
            Map.of(e, List.of(3)), Map.of(), Map.of(3, 1L), Map.of(), Map.of(), Map.of(), 100, Map.of(), null,
            new NodeSampler.NodeWindow(1, null, Map.of()), null, List.of());
        MetricsDocument d = WindowAssembler.assemble(in);
        assertNull(d.worker().cpuCores());
        assertNull(d.node().cpuMhz());
        assertEquals(0.3333, d.executors().get(0).executedPerS());
    }

    @Test
    void busyIsExecutesTimesMeanSampledExecuteTimeOverTheWindowPerExecutor() {
        ExecutorId pair = new ExecutorId(1, 2);
        ExecutorId unsampled = ExecutorId.single(3);
        ExecutorId idle = ExecutorId.single(4);
        // 4 s window; task 1: 400 executes, 40 sampled, 120 ms in all -> 3 ms each -> 1.2 s busy;
        // task 2: 40 executes, 4 sampled, 20 ms -> 5 ms each -> 0.2 s busy; together 1.4 s of 4 s.
        WindowInputs in = new WindowInputs("t", "h", 1, 1, 0, 0, FOUR_S, 1, 4,
            Map.of(1, "a", 2, "a", 3, "b", 4, "c"), Map.of(pair, List.of(1, 2), unsampled, List.of(3), idle, List.of(4)),
            Map.of(), Map.of(1, 400L, 2, 40L, 3, 10L), Map.of(), Map.of(), Map.of(), 100, Map.of(), null,
            new NodeSampler.NodeWindow(1, null, Map.of()), null, List.of(),
            Map.of(1, 40L, 2, 4L), Map.of(1, 120L, 2, 20L), Map.of());
        MetricsDocument d = WindowAssembler.assemble(in);
        assertEquals(0.35, d.executors().get(0).busy());
        assertNull(d.executors().get(1).busy(), "executed but never sampled: unknown");
        assertEquals(0.0, d.executors().get(2).busy(), "executed nothing: not busy");
    }

    @Test
    void anExecutorsStateIsItsLargestTasksAndOverTheLimitWins() {
        ExecutorId pair = new ExecutorId(1, 2);
        ExecutorId single = ExecutorId.single(3);
        ExecutorId unmeasured = ExecutorId.single(4);
        MetricsDocument.StateSize small = new MetricsDocument.StateSize(10, false, 5);
        MetricsDocument.StateSize over = new MetricsDocument.StateSize(101, true, 6);
        MetricsDocument.StateSize big = new MetricsDocument.StateSize(90, false, 7);
        WindowInputs in = new WindowInputs("t", "h", 1, 1, 0, 0, FOUR_S, 1, 4,
            Map.of(1, "a", 2, "a", 3, "b", 4, "c"), Map.of(pair, List.of(1, 2), single, List.of(3), unmeasured, List.of(4)),
            Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), 100, Map.of(), null,
            new NodeSampler.NodeWindow(1, null, Map.of()), null, List.of(), Map.of(), Map.of(),
            Map.of(1, small, 2, over, 3, big));
        MetricsDocument d = WindowAssembler.assemble(in);
        assertEquals(over, d.executors().get(0).state());
        assertEquals(big, d.executors().get(1).state());
        assertNull(d.executors().get(2).state());
    }

    @Test
    void anEmptyWindowIsRejected() {
        WindowInputs in = new WindowInputs("t", "h", 1, 1, 0, 0, 0, 1, 3, Map.of(), Map.of(), Map.of(), Map.of(),
            Map.of(), Map.of(), Map.of(), 100, Map.of(), null, new NodeSampler.NodeWindow(1, null, Map.of()), null,
            List.of());
        assertThrows(IllegalArgumentException.class, () -> WindowAssembler.assemble(in));
    }

    @Test
    void tasksJoinTheExecutorWhoseRangeHoldsThemElseTheirOwn() {
        Map<ExecutorId, List<Integer>> g = ExecutorGrouping.group(List.of(4, 2, 3, 9),
            List.of(new ExecutorId(2, 4), ExecutorId.single(-1)));
        assertEquals(Map.of(new ExecutorId(2, 4), List.of(2, 3, 4), ExecutorId.single(9), List.of(9)), g);
    }
}
