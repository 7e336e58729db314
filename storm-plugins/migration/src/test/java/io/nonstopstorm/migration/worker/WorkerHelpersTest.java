package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

class WorkerHelpersTest {

    @Test
    void localRoutesIndexEveryLocalTaskFromTheSmallestId() {
        LocalRoutes<String> r = LocalRoutes.rebuild(Map.of(-1, "sys", 3, "q3", 5, "q5"), null, 0, null);
        assertEquals(-1, r.base());
        assertEquals(7, r.queues().size());
        assertEquals("sys", r.queues().get(0));
        assertEquals("q3", r.queues().get(3 - r.base()));
        assertNull(r.queues().get(4 - r.base()));
        assertEquals(7, r.toFlush().length());
    }

    /** A map that gains a task after each read of it, as the worker's does while executors are added. */
    private static final class GrowingMap extends java.util.AbstractMap<Integer, String> {
        private final Map<Integer, String> now = new java.util.TreeMap<>();
        private int next = 39;

        @Override
        public java.util.Set<Map.Entry<Integer, String>> entrySet() {
            java.util.Set<Map.Entry<Integer, String>> seen = new java.util.LinkedHashSet<>();
            now.forEach((k, v) -> seen.add(Map.entry(k, v)));
            now.put(next, "q" + next);
            next++;
            return seen;
        }
    }

    @Test
    void localRoutesStayConsistentWhileTheWorkerAddsTasks() {
        GrowingMap local = new GrowingMap();
        local.now.put(3, "q3");
        local.now.put(5, "q5");
        LocalRoutes<String> r = LocalRoutes.rebuild(local, null, 0, null);
        assertEquals(3, r.base());
        for (int i = 0; i < r.queues().size(); i++) {
            String q = r.queues().get(i);
            assertTrue(q == null || q.equals("q" + (i + r.base())), "queue at index " + i + ": " + q);
        }
        assertEquals("q5", r.queues().get(5 - r.base()));
    }

    @Test
    void pendingFlushesFollowTheirQueueOrBecomeOrphans() {
        LocalRoutes<String> before = LocalRoutes.rebuild(Map.of(-1, "sys", 3, "q3", 5, "q5"), null, 0, null);
        AtomicReferenceArray<String> toFlush = before.toFlush();
        toFlush.set(3 - before.base(), "q3");
        toFlush.set(5 - before.base(), "q5");
        // task 5 moved away, task 9 arrived
        LocalRoutes<String> after = LocalRoutes.rebuild(Map.of(-1, "sys", 3, "q3", 9, "q9"), before.queues(),
                                                        before.base(), toFlush);
        assertEquals("q3", after.toFlush().get(3 - after.base()), "still local: still to be flushed");
        assertEquals(List.of("q5"), after.orphaned(), "gone: flushed once by the caller");
        assertEquals("q9", after.queues().get(9 - after.base()));
        assertNull(after.queues().get(5 - after.base()));
    }

    @Test
    void timersAreWrappedOnlyWhileAnExecutorInitialises() {
        Runnable plain = () -> { };
        assertSame(plain, ExecutorTimers.wrap(plain));
        ExecutorTimers.beginInit("exec-A");
        Runnable wrapped;
        try {
            wrapped = ExecutorTimers.wrap(plain);
        } finally {
            ExecutorTimers.endInit();
        }
        assertFalse(wrapped == plain);
        assertSame(plain, ExecutorTimers.wrap(plain));
    }

    @Test
    void aCancelledTimerRunsNoMoreAndAsksOnceToDropItsReschedule() {
        AtomicInteger runs = new AtomicInteger();
        ExecutorTimers.beginInit("exec-B");
        Runnable tick = ExecutorTimers.wrap(runs::incrementAndGet);
        Runnable other = ExecutorTimers.wrap(runs::incrementAndGet);
        ExecutorTimers.endInit();
        tick.run();
        assertEquals(1, runs.get());
        assertFalse(ExecutorTimers.consumeDropFlag(), "a live timer is rescheduled normally");
        assertEquals(2, ExecutorTimers.cancel("exec-B"));
        tick.run();
        assertEquals(1, runs.get(), "cancelled: the task body no longer runs");
        assertTrue(ExecutorTimers.consumeDropFlag(), "the timer's reschedule right after is skipped");
        assertFalse(ExecutorTimers.consumeDropFlag(), "only that one");
        other.run();
        assertTrue(ExecutorTimers.consumeDropFlag());
        assertEquals(0, ExecutorTimers.cancel("exec-B"), "nothing left for that executor");
    }

    @Test
    void liveListFollowsTheSwappedReference() {
        AtomicReference<List<String>> ref = new AtomicReference<>(List.of("a", "b"));
        LiveList<String> live = new LiveList<>(ref::get);
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < live.size(); i++) {
            seen.add(live.get(i));
        }
        assertEquals(List.of("a", "b"), seen);
        ref.set(List.of("a", "b", "c"));
        assertEquals(3, live.size());
        assertEquals("c", live.get(2));
        ref.set(null);
        assertEquals(0, live.size());
    }

    @Test
    void retiredTasksAreForwardedUntilTheyExpireOrReturn() {
        AtomicLong now = new AtomicLong(0);
        RetiredTasks r = new RetiredTasks(1000, now::get);
        r.retire(7);
        r.retire(8);
        assertTrue(r.shouldForward(7));
        assertFalse(r.shouldForward(9), "never hosted here: not forwarded");
        r.restore(8);
        assertFalse(r.shouldForward(8), "hosted here again");
        now.set(1000);
        assertTrue(r.shouldForward(7));
        assertEquals(java.util.Set.of(7), r.live());
        now.set(1001);
        assertFalse(r.shouldForward(7));
        assertTrue(r.live().isEmpty());
    }
}
