package io.nonstopstorm.metrics.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ExecutorId;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ThreadCpuSamplerTest {
    /** A scripted thread list: each sample() returns the next list. */
    private static final class ScriptedThreads implements ThreadSource {
        private final List<List<ThreadReading>> script;
        private int i;

        ScriptedThreads(List<List<ThreadReading>> script) {
            this.script = script;
        }

        @Override
        public List<ThreadReading> threads() {
            return script.get(i++);
        }
    }

    @Test
    void executorCpuIsTheThreadsCpuSinceThePreviousSample() {
        String a = "Thread-1-a-executor[1, 1]";
        String b = "Thread-9-b-executor[2, 2]";
        ThreadCpuSampler s = new ThreadCpuSampler(new ScriptedThreads(List.of(
            List.of(new ThreadSource.ThreadReading(10, a, 1_000), new ThreadSource.ThreadReading(11, "main", 5)),
            List.of(new ThreadSource.ThreadReading(10, a, 4_000), new ThreadSource.ThreadReading(12, b, 700)),
            // the executor [1, 1] got a new thread (e.g. it was migrated out and back): it counts from zero
            List.of(new ThreadSource.ThreadReading(13, a, 50), new ThreadSource.ThreadReading(12, b, 900)))));

        Map<ExecutorId, ThreadCpuSampler.ExecutorThread> first = s.sample();
        assertNull(first.get(ExecutorId.single(1)).cpuNanos(), "baseline only");
        assertEquals(1, first.size());

        Map<ExecutorId, ThreadCpuSampler.ExecutorThread> second = s.sample();
        assertEquals(3_000L, second.get(ExecutorId.single(1)).cpuNanos());
        assertEquals(700L, second.get(ExecutorId.single(2)).cpuNanos(), "started within the window");
        assertEquals("b", second.get(ExecutorId.single(2)).component());

        Map<ExecutorId, ThreadCpuSampler.ExecutorThread> third = s.sample();
        assertEquals(50L, third.get(ExecutorId.single(1)).cpuNanos());
        assertEquals(200L, third.get(ExecutorId.single(2)).cpuNanos());
    }

    @Test
    void aBusyExecutorThreadAndAnIdleOneAreToldApartOnTheRealJvm() throws Exception {
        ThreadCpuSampler s = new ThreadCpuSampler(new JvmThreadSource());
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(2);
        List<Thread> threads = new ArrayList<>();
        Thread busy = new Thread(() -> {
            started.countDown();
            long x = 0;
            while (!stop.get()) {
                x += System.nanoTime() % 7;
            }
            if (x == 42) {
                System.out.print("");
            }
        });
        busy.setName(busy.getName() + "-busy-executor[901, 901]");
        Thread idle = new Thread(() -> {
            started.countDown();
            while (!stop.get()) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        idle.setName(idle.getName() + "-idle-executor[902, 902]");
        threads.add(busy);
        threads.add(idle);
        s.sample();
        threads.forEach(Thread::start);
        started.await();
        // Until the busy thread has had 60 ms of CPU by the JVM's own count (however loaded the machine is),
        // not a fixed sleep: on a busy 2-core machine 400 ms of wall time gave it as little as 44 ms.
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (mx.getThreadCpuTime(busy.getId()) < 60_000_000L && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Map<ExecutorId, ThreadCpuSampler.ExecutorThread> window = s.sample();
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        Long busyNs = window.get(ExecutorId.single(901)).cpuNanos();
        Long idleNs = window.get(ExecutorId.single(902)).cpuNanos();
        assertNotNull(busyNs);
        assertNotNull(idleNs);
        assertTrue(busyNs > 50_000_000L, "busy thread used " + busyNs + " ns");
        assertTrue(busyNs > 10 * idleNs, "busy " + busyNs + " ns vs idle " + idleNs + " ns");
    }
}
