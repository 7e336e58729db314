package io.nonstopstorm.migration.nimbus;

/**
 * A sleep that a wake-up cuts short. Nimbus's timer thread sleeps up to 1 s between looks at its task
 * queue and is not woken when a task is added; its sleeps go through {@link #sleep} instead, so a newly
 * queued round runs at once after {@link #wake}. A wake that comes while the thread is not sleeping
 * ends its next sleep at once (the thread may have looked at the queue just before the task was added).
 */
final class TimerWake {
    private final Object monitor = new Object();
    private boolean woken;

    /** Sleeps {@code ms}, or less if woken meanwhile (or since the last sleep). */
    void sleep(long ms) throws InterruptedException {
        long deadline = System.nanoTime() + ms * 1_000_000L;
        synchronized (monitor) {
            long left;
            while (!woken && (left = deadline - System.nanoTime()) > 0) {
                monitor.wait(Math.max(1, left / 1_000_000L));
            }
            woken = false;
        }
    }

    void wake() {
        synchronized (monitor) {
            woken = true;
            monitor.notifyAll();
        }
    }
}
