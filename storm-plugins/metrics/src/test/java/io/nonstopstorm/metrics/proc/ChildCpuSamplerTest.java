package io.nonstopstorm.metrics.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ExecutorId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class ChildCpuSamplerTest {
    @TempDir
    Path proc;

    private void write(String rel, String content) throws IOException {
        Path p = proc.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private void task(String tid, String comm, String children) throws IOException {
        write("100/task/" + tid + "/comm", comm + "\n");
        write("100/task/" + tid + "/children", children);
    }

    private void child(long pid, long utime, long stime) throws IOException {
        write(pid + "/stat", pid + " (python3) S 100 1 1 0 -1 0 0 0 0 0 " + utime + " " + stime + " 0 0 20 0 1 0 5 0 0");
    }

    @Test
    void childrenOfTheExecutorThreadAreCharged() throws IOException {
        String shell = "Thread-14-score-executor[6, 6]";
        String plain = "Thread-15-busy-executor[1, 1]";
        task("101", "java", "");
        task("102", "Thread-14-score", "200 ");
        task("103", "Thread-15-busy-", "");
        child(200, 10, 5);
        ChildCpuSampler s = new ChildCpuSampler(new ProcFs(proc), "100");
        Map<ExecutorId, String> names = Map.of(ExecutorId.single(6), shell, ExecutorId.single(1), plain);

        Map<ExecutorId, ChildCpuSampler.ChildCpu> first = s.sample(names);
        assertEquals(Map.of(ExecutorId.single(6), new ChildCpuSampler.ChildCpu(1, null)), first);

        child(200, 40, 15);
        task("102", "Thread-14-score", "200 201");
        child(201, 3, 0);  // started within the window
        Map<ExecutorId, ChildCpuSampler.ChildCpu> second = s.sample(names);
        assertEquals(new ChildCpuSampler.ChildCpu(2, 40L + 3L), second.get(ExecutorId.single(6)));
        assertTrue(!second.containsKey(ExecutorId.single(1)), "no children: omitted");
    }

    @Test
    void anAmbiguousThreadNameChargesNothing() throws IOException {
        task("102", "Thread-1-a-execu", "300");
        task("103", "Thread-1-a-execu", "301");
        child(300, 1, 1);
        child(301, 1, 1);
        ChildCpuSampler s = new ChildCpuSampler(new ProcFs(proc), "100");
        assertEquals(Map.of(), s.sample(Map.of(ExecutorId.single(1), "Thread-1-a-executor[1, 1]")));
    }

    @Test
    void aVanishedProcTreeIsEmptyNotAnError() {
        ChildCpuSampler s = new ChildCpuSampler(new ProcFs(proc.resolve("missing")), "100");
        assertEquals(Map.of(), s.sample(Map.of(ExecutorId.single(1), "Thread-1-a-executor[1, 1]")));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aRealChildStartedByAnExecutorThreadIsFoundAndCharged() throws Exception {
        AtomicReference<Process> child = new AtomicReference<>();
        CountDownLatch launched = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread executor = new Thread(() -> {
            try {
                child.set(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
                launched.countDown();
                done.await();
            } catch (Exception e) {
                launched.countDown();
            }
        });
        executor.setName(executor.getName() + "-shell-executor[7, 7]");
        executor.start();
        try {
            launched.await();
            ChildCpuSampler s = new ChildCpuSampler(ProcFs.system(), Long.toString(ProcessHandle.current().pid()));
            Map<ExecutorId, String> names = Map.of(ExecutorId.single(7), executor.getName());
            // The child shows under its thread in /proc once the spawn has finished (jspawnhelper execs the
            // command after start() returns); on a busy machine that can take a moment.
            ChildCpuSampler.ChildCpu first = s.sample(names).get(ExecutorId.single(7));
            for (long deadline = System.nanoTime() + 5_000_000_000L; first == null && System.nanoTime() < deadline; ) {
                Thread.sleep(20);
                first = s.sample(names).get(ExecutorId.single(7));
            }
            // Found, as one process. Its ticks are null at a first sighting, but a sample taken while the spawn
            // was under way may already have met its pid (not yet the command), so a delta can come with it.
            assertNotNull(first, "the child never showed under its thread");
            assertEquals(1, first.processes());
            assertTrue(first.cpuTicks() == null || first.cpuTicks() >= 0, first::toString);
            // Windows of 200 ms until the busy child has been seen using CPU: on a loaded machine a fixed
            // second can pass with the child never scheduled, so the check polls (bounded) instead.
            long ticks = 0;
            for (long deadline = System.nanoTime() + 30_000_000_000L; ticks < 1 && System.nanoTime() < deadline; ) {
                Thread.sleep(200);
                ChildCpuSampler.ChildCpu window = s.sample(names).get(ExecutorId.single(7));
                assertEquals(1, window.processes());
                ticks += window.cpuTicks();
            }
            assertTrue(ticks >= 1, "a busy child used no CPU tick in 30 s of windows");
        } finally {
            if (child.get() != null) {
                child.get().destroyForcibly().waitFor();
            }
            done.countDown();
            executor.join();
        }
    }
}
