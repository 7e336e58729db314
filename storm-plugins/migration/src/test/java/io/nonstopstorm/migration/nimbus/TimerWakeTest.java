package io.nonstopstorm.migration.nimbus;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TimerWakeTest {
    private static final long LONG_SLEEP_MS = 60_000;

    @Test
    void aWakeEndsASleepInProgress() throws Exception {
        TimerWake wake = new TimerWake();
        CountDownLatch slept = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            try {
                wake.sleep(LONG_SLEEP_MS);
                slept.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        assertFalse(slept.await(200, TimeUnit.MILLISECONDS), "no wake yet: still sleeping");
        wake.wake();
        assertTrue(slept.await(30, TimeUnit.SECONDS), "the wake ended the sleep");
    }

    @Test
    void aWakeBeforeTheSleepEndsTheNextSleepOnly() throws Exception {
        TimerWake wake = new TimerWake();
        wake.wake();
        wake.sleep(LONG_SLEEP_MS);      // returns at once, or the test times out
        long t0 = System.nanoTime();
        wake.sleep(50);                 // the wake was used up: a full (short) sleep
        assertTrue(System.nanoTime() - t0 >= 50_000_000L, "the second sleep was cut short too");
    }

    @Test
    void anInterruptStillEndsTheSleepAsThreadSleepWould() throws Exception {
        TimerWake wake = new TimerWake();
        boolean[] interrupted = new boolean[1];
        Thread sleeper = new Thread(() -> {
            try {
                wake.sleep(LONG_SLEEP_MS);
            } catch (InterruptedException e) {
                interrupted[0] = true;
            }
        });
        sleeper.start();
        Thread.sleep(100);
        sleeper.interrupt();              // how StormTimer.close() stops its thread
        sleeper.join(30_000);
        assertTrue(interrupted[0]);
    }
}
