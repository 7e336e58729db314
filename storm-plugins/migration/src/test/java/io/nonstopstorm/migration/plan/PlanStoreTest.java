package io.nonstopstorm.migration.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ExecutorId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class PlanStoreTest {
    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_000);

    public static NodePlan content(int port, String topo, int... tasks) {
        TreeSet<ExecutorId> execs = new TreeSet<>();
        for (int t : tasks) {
            execs.add(new ExecutorId(t, t));
        }
        return new NodePlan(0, 0, new TreeMap<>(Map.of(port, new PortPlan(topo, execs))),
                            new TreeMap<>(Map.of(topo, "fp-" + tasks.length)));
    }

    private PlanStore store() {
        return new PlanStore(dir.resolve("nonstop/plan.json"), clock::get);
    }

    @Test
    void firstPublishIsVersionOneAndReadsBack() throws Exception {
        PlanStore s = store();
        assertTrue(s.read().isEmpty());
        NodePlan p = s.publish(content(6701, "t-1", 1, 2));
        assertEquals(1, p.version());
        assertEquals(1_000, p.writtenAtMs());
        NodePlan back = s.read().orElseThrow();
        assertEquals(p, back);
        assertEquals(List.of(new ExecutorId(1, 1), new ExecutorId(2, 2)),
                     List.copyOf(back.port(6701).orElseThrow().executors()));
    }

    @Test
    void sameContentKeepsTheVersionAndChangedContentBumpsIt() throws Exception {
        PlanStore s = store();
        s.publish(content(6701, "t-1", 1, 2));
        clock.set(2_000);
        NodePlan same = s.publish(content(6701, "t-1", 2, 1));
        assertEquals(1, same.version());
        assertEquals(1_000, same.writtenAtMs(), "an unchanged plan is not rewritten");
        NodePlan changed = s.publish(content(6701, "t-1", 1));
        assertEquals(2, changed.version());
        assertEquals(2_000, changed.writtenAtMs());
        assertEquals(3, s.publish(content(6702, "t-1", 1)).version());
    }

    @Test
    void versionsStayMonotonicAcrossStoreInstances() throws Exception {
        store().publish(content(6701, "t-1", 1));
        store().publish(content(6701, "t-1", 2));
        NodePlan third = store().publish(content(6701, "t-1", 3));
        assertEquals(3, third.version(), "a restarted supervisor continues from the stored version");
    }

    @Test
    void leavesNoTemporaryFilesBehind() throws Exception {
        PlanStore s = store();
        for (int i = 1; i <= 5; i++) {
            s.publish(content(6701, "t-1", i));
        }
        try (Stream<Path> files = Files.list(dir.resolve("nonstop"))) {
            assertEquals(List.of("plan.json", "plan.json.lock"), files.map(f -> f.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void aCorruptFileIsReportedOnReadAndReplacedOnPublish() throws Exception {
        PlanStore s = store();
        s.publish(content(6701, "t-1", 1));
        Files.writeString(s.file(), "{\"format\":1,\"version\":");
        PlanFormatException e = assertThrows(PlanFormatException.class, s::read);
        assertTrue(e.getMessage().contains("plan.json"), e.getMessage());
        NodePlan next = s.publish(content(6701, "t-1", 2));
        assertEquals(2, next.version(), "the same process never reuses a version it wrote");
        assertEquals(next, s.read().orElseThrow());
    }

    @Test
    void aRestartedWriterContinuesAboveTheLastVersionEvenWhenThePlanFileIsCorrupt() throws Exception {
        PlanStore before = store();
        for (int i = 1; i <= 3; i++) {
            before.publish(content(6701, "t-1", i));
        }
        // A restarted supervisor: a store this JVM never wrote through, on the same files.
        Path moved = dir.resolve("restarted/nonstop");
        Files.createDirectories(moved);
        Files.copy(before.file(), moved.resolve("plan.json"));
        Files.copy(before.file().resolveSibling("plan.json.lock"), moved.resolve("plan.json.lock"));
        Files.writeString(moved.resolve("plan.json"), "garbage{");
        PlanStore after = new PlanStore(moved.resolve("plan.json"), clock::get);
        assertEquals(4, after.publish(content(6701, "t-1", 3)).version(),
                     "the version must not restart at 1: a worker that saw v3 would take a later v3 for old news");
        Files.delete(moved.resolve("plan.json"));
        assertEquals(5, after.publish(content(6701, "t-1", 4)).version());
    }

    @Test
    void concurrentReadersOnlyEverSeeWholeVersionsInOrder() throws Exception {
        PlanStore s = store();
        s.publish(content(6701, "t-1", 1));   // version v holds task v (task ids start at 1)
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            long last = 0;
            PlanStore r = store();
            while (!done.get()) {
                try {
                    NodePlan p = r.read().orElseThrow();
                    if (p.version() < last) {
                        throw new AssertionError("version went back from " + last + " to " + p.version());
                    }
                    int expected = (int) p.version();
                    if (!p.port(6701).orElseThrow().executors().contains(new ExecutorId(expected, expected))) {
                        throw new AssertionError("version " + p.version() + " has foreign content " + p);
                    }
                    last = p.version();
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    return;
                }
            }
        });
        reader.start();
        for (int i = 2; i <= 300; i++) {
            s.publish(content(6701, "t-1", i));
        }
        done.set(true);
        reader.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(300, s.read().orElseThrow().version());
    }

    @Test
    void twoStoreObjectsOnOneFileDoNotLoseVersions() throws Exception {
        PlanStore a = store();
        PlanStore b = store();
        Thread ta = new Thread(() -> publishMany(a, 0));
        Thread tb = new Thread(() -> publishMany(b, 1000));
        ta.start();
        tb.start();
        ta.join();
        tb.join();
        // 2 x 50 changes of content, each a new version under the file lock.
        assertEquals(100, store().read().orElseThrow().version());
        assertFalse(Files.exists(dir.resolve("nonstop/plan.json.tmp-" + ProcessHandle.current().pid())));
    }

    private static void publishMany(PlanStore s, int offset) {
        try {
            for (int i = 0; i < 50; i++) {
                s.publish(content(6701, "t-1", offset + i));
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
