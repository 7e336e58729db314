package org.apache.storm.daemon.worker;

import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps the worker's default uncaught-exception handler (which exits the worker). Stopping a single
 * executor interrupts it and its helper threads (say, a ShellBolt's reader); such a thread may die of
 * the interruption shortly after. Storm never sees that, because it only stops executors when the whole
 * worker goes down; here it must not take the worker with it. Only deaths caused by an interruption
 * within a few seconds of an executor stop are absorbed; everything else still goes to Storm's handler.
 */
final class StoppingExecutorGuard implements Thread.UncaughtExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(StoppingExecutorGuard.class);
    private static final long WINDOW_MS = 10_000;

    private final Thread.UncaughtExceptionHandler delegate;
    private final LongSupplier lastStopMs;
    private final LongSupplier clock;

    StoppingExecutorGuard(Thread.UncaughtExceptionHandler delegate, LongSupplier lastStopMs, LongSupplier clock) {
        this.delegate = delegate;
        this.clock = clock;
        this.lastStopMs = lastStopMs;
    }

    @Override
    public void uncaughtException(Thread t, Throwable e) {
        long since = clock.getAsLong() - lastStopMs.getAsLong();
        if (since >= 0 && since <= WINDOW_MS && causedByInterruption(e)) {
            LOG.warn("nonstop: thread {} died of an interruption {} ms after an executor was stopped; worker keeps running",
                     t.getName(), since, e);
            return;
        }
        if (delegate != null) {
            delegate.uncaughtException(t, e);
        } else {
            LOG.error("Uncaught exception in thread {}", t.getName(), e);
        }
    }

    static boolean causedByInterruption(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof InterruptedException || c instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }
}
