package org.apache.storm.daemon.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StoppingExecutorGuardTest {

    @Test
    void absorbsOnlyInterruptionDeathsRightAfterAnExecutorStop() {
        List<Throwable> passedOn = new ArrayList<>();
        AtomicLong lastStop = new AtomicLong(0);
        AtomicLong now = new AtomicLong(1_000_000);
        StoppingExecutorGuard g = new StoppingExecutorGuard((t, e) -> passedOn.add(e), lastStop::get, now::get);
        Throwable interrupted = new RuntimeException(new RuntimeException(new InterruptedException()));
        Throwable other = new IllegalStateException("real bug");

        g.uncaughtException(Thread.currentThread(), interrupted);
        assertEquals(List.of(interrupted), passedOn, "no executor stopped yet: Storm's handler decides");

        lastStop.set(now.get());
        g.uncaughtException(Thread.currentThread(), interrupted);
        assertEquals(1, passedOn.size(), "interruption right after a stop is absorbed");
        g.uncaughtException(Thread.currentThread(), other);
        assertEquals(List.of(interrupted, other), passedOn, "other failures still reach Storm's handler");

        now.addAndGet(10_000);
        g.uncaughtException(Thread.currentThread(), interrupted);
        assertEquals(2, passedOn.size(), "the last millisecond of the window still absorbs");

        now.addAndGet(1);
        g.uncaughtException(Thread.currentThread(), interrupted);
        assertEquals(3, passedOn.size(), "after the window: Storm's handler again");
    }
}
