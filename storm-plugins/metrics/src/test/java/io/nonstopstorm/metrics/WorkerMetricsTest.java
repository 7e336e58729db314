package io.nonstopstorm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import io.nonstopstorm.metrics.core.QueueLevel;
import io.nonstopstorm.metrics.core.TaskCounters;
import io.nonstopstorm.metrics.cpu.ThreadSource;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import io.nonstopstorm.metrics.proc.ProcFs;
import io.nonstopstorm.metrics.publish.DocumentSink;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerMetricsTest {
    @TempDir
    Path proc;

    static final class ListSink implements DocumentSink {
        final List<String> docs = new ArrayList<>();
        boolean started;
        boolean closed;

        @Override
        public void start() {
            started = true;
        }

        @Override
        public boolean publish(String json) {
            docs.add(json);
            return true;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong cpu = new AtomicLong();
    private final List<ThreadSource.ThreadReading> threads = new ArrayList<>();

    private WorkerSetup setup(ListSink sink) throws IOException {
        Files.writeString(proc.resolve("stat"), "cpu  1 0 0 1 0 0 0 0 0 0\ncpu0 1\n");
        MetricsSettings settings = new MetricsSettings(5, "/nonstop/metrics", "127.0.0.1:1", 6000, 6000, 100, "h1");
        return new WorkerSetup("t-1", 6700, settings, 77, 5, List.of(),
            e -> e.start() == 1 ? new QueueLevel(9, 1024) : null, sink, () -> List.copyOf(threads),
            new ProcFs(proc), "77", cpu::get, nanos::get, () -> 123_000L);
    }

    @Test
    void eachWindowPublishesPairRatesAndExecutorCpuOfRegisteredTasks() throws IOException {
        ListSink sink = new ListSink();
        WorkerMetrics wm = new WorkerMetrics(setup(sink));
        TaskCounters spout = new TaskCounters(1, "keys", 3);
        TaskCounters bolt = new TaskCounters(2, "count", 3);
        wm.addForTest(spout);
        wm.addForTest(bolt);
        threads.add(new ThreadSource.ThreadReading(30, "Thread-4-keys-executor[1, 1]", 1_000_000));
        threads.add(new ThreadSource.ThreadReading(31, "Thread-6-__acker-executor[3, 3]", 0));
        spout.countEmit(List.of(2));

        assertNull(wm.tick(), "the first sample is the baseline");
        assertTrue(sink.docs.isEmpty());

        for (int i = 0; i < 500; i++) {
            spout.countEmit(List.of(2));
            bolt.countExecuted();
        }
        nanos.addAndGet(5_000_000_000L);
        cpu.addAndGet(2_500_000_000L);
        threads.set(0, new ThreadSource.ThreadReading(30, "Thread-4-keys-executor[1, 1]", 1_001_000_000));
        MetricsDocument d = wm.tick();

        assertEquals(1, sink.docs.size());
        assertEquals(List.of(new MetricsDocument.Pair(1, 2, 500, 100.0)), d.traffic());
        assertEquals(List.of(ExecutorId.single(1), ExecutorId.single(2)),
            d.executors().stream().map(MetricsDocument.Executor::id).toList(), "user executors only");
        MetricsDocument.Executor keys = d.executors().get(0);
        assertEquals(0.2, keys.cpuCores());
        assertEquals(100.0, keys.emittedPerS());
        assertEquals(9, keys.queueLength());
        assertNull(d.executors().get(1).cpuCores(), "no thread for [2, 2]");
        assertEquals(100.0, d.executors().get(1).executedPerS());
        assertEquals(0.5, d.worker().cpuCores());
        assertEquals(1, d.window().seq());
        assertEquals(5.0, d.window().seconds());
        assertTrue(sink.docs.get(0).contains("\"topology_id\":\"t-1\""));
    }

    @Test
    void theLoopStartsWithTheFirstTaskAndStopsWithTheLast() throws IOException {
        ListSink sink = new ListSink();
        WorkerSetup s = setup(sink);
        TaskCounters a = new TaskCounters(1, "a", 2);
        TaskCounters b = new TaskCounters(2, "a", 2);
        WorkerMetrics.register("t-life", 6701, a, () -> s);
        WorkerMetrics.register("t-life", 6701, b, () -> {
            throw new AssertionError("one loop per worker");
        });
        assertTrue(sink.started);
        WorkerMetrics.unregister("t-life", 6701, a);
        assertTrue(!sink.closed, "a task is still there");
        WorkerMetrics.unregister("t-life", 6701, b);
        assertTrue(sink.closed);
    }

    @Test
    void theWorkersHoldKeepsTheLoopAfterItsLastTaskMigratedAway() throws IOException {
        ListSink sink = new ListSink();
        WorkerSetup s = setup(sink);
        TaskCounters a = new TaskCounters(1, "a", 2);
        WorkerMetrics.hold("t-hold", 6702, () -> s);
        assertTrue(sink.started, "the worker's system task starts the loop");
        WorkerMetrics.register("t-hold", 6702, a, () -> {
            throw new AssertionError("one loop per worker");
        });
        WorkerMetrics.unregister("t-hold", 6702, a);
        assertTrue(!sink.closed, "the worker still runs: its loop goes on without user tasks");
        WorkerMetrics.release("t-hold", 6702);
        assertTrue(sink.closed);
        WorkerMetrics.release("t-hold", 6702);   // a second release of a stopped loop is harmless
    }
}
