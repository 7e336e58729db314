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
        StoppingExecutorGuard g = new StoppingExecutorGuard((t, e) -> passedOn.add(e), lastStop::get);
        Throwable interrupted = new RuntimeException(new RuntimeException(new InterruptedException()));
        Throwable other = new IllegalStateException("real bug");

        g.uncaughtException(Thread.currentThread(), interrupted);
        assertEquals(List.of(interrupted), passedOn, "no executor stopped yet: Storm's handler decides");

        lastStop.set(System.currentTimeMillis());
        g.uncaughtException(Thread.currentThread(), interrupted);
        assertEquals(1, passedOn.size(), "interruption right after a stop is absorbed");
        g.uncaughtException(Thread.currentThread(), other);
        assertEquals(List.of(interrupted, other), passedOn, "other failures still reach Storm's handler");

        lastStop.set(System.currentTimeMillis() - 60_000);
        g.uncaughtException(Thread.currentThread(), interrupted);
        assertEquals(3, passedOn.size(), "long after the stop: Storm's handler again");
    }
}
