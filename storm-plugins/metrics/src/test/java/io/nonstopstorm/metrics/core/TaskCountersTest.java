package io.nonstopstorm.metrics.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TaskCountersTest {
    @Test
    void countsEachDestinationOfEachEmit() {
        TaskCounters c = new TaskCounters(5, "keys", 9);
        c.countEmit(List.of(1));
        c.countEmit(List.of(1, 3));
        c.countEmit(new TreeSet<>(Set.of(3, 4)));  // not a RandomAccess list
        assertEquals(3, c.emitted());
        assertEquals(2, c.sentTo(1));
        assertEquals(0, c.sentTo(2));
        assertEquals(2, c.sentTo(3));
        assertEquals(1, c.sentTo(4));
    }

    @Test
    void destinationsOutsideTheTopologyAreIgnoredNotFatal() {
        TaskCounters c = new TaskCounters(1, "a", 3);
        c.countEmit(List.of(-1, 4, 99, 2));
        assertEquals(1, c.sentTo(2));
        assertEquals(0, c.sentTo(99));
        assertEquals(1, c.emitted());
    }

    @Test
    void emitsFromSeveralThreadsSwitchToAtomicCountsAndLoseAtMostTheSwitch() throws InterruptedException {
        TaskCounters c = new TaskCounters(1, "a", 4);
        c.countEmit(List.of(2));  // this thread becomes the task's emitter
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            threads.add(new Thread(() -> {
                List<Integer> out = List.of(2, 3);
                for (int i = 0; i < 100_000; i++) {
                    c.countEmit(out);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(300_001, c.emitted());
        assertEquals(300_001, c.sentTo(2));
        assertEquals(300_000, c.sentTo(3));
    }

    @Test
    void theSamplerSeesTheEmittersCountsFromAnotherThread() throws Exception {
        TaskCounters c = new TaskCounters(1, "a", 4);
        Thread emitter = new Thread(() -> {
            for (int i = 0; i < 50_000; i++) {
                c.countEmit(List.of(3));
                c.countExecuted();
            }
        });
        emitter.start();
        emitter.join();
        assertEquals(50_000, c.sentTo(3));
        assertEquals(50_000, c.emitted());
        assertEquals(50_000, c.executed());
    }
}
