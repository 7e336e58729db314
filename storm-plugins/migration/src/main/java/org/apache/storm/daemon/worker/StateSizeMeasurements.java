package org.apache.storm.daemon.worker;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import io.nonstopstorm.metrics.hook.MeasuredStateSizes;
import io.nonstopstorm.migration.state.HandoffLimits;
import io.nonstopstorm.migration.state.HandoffState;
import io.nonstopstorm.migration.state.StateSizeProbe;
import io.nonstopstorm.migration.worker.LoggedTask;
import io.nonstopstorm.migration.worker.MultilangHandoff;
import java.io.OutputStream;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * F2 before the switch (docs/state-handoff.md): this worker measures the serialised size of each opting-in
 * task's state now and then, on the task's own executor thread at its next tuple (the one thread that may
 * read the state), and the metrics hook publishes it; the plan-following scheduler refuses a move of a task
 * whose published state is over {@code nonstop.migration.state.max.bytes}, so its state stays where it is.
 * {@link StateSizeProbe} bounds the cost. A multilang bolt's state lives in its subprocess and is not measured.
 */
final class StateSizeMeasurements {
    private static final Logger LOG = LoggerFactory.getLogger(StateSizeMeasurements.class);
    /** How often the timer looks for tasks due (each task's own schedule is the probe's). */
    private static final long MARK_EVERY_MS = 1000;
    /** A measurement this long is logged (it held its executor for that long). */
    private static final long SLOW_MS = 50;

    private final StateSizeProbe probe;
    private final long intervalMs;
    private final long maxBytes;
    private final ThreadLocal<Kryo> kryo;
    private final LongSupplier clock;
    private final MeasuredStateSizes published;
    /** Tasks to measure at their next tuple: marked by the timer, taken on the executor's thread. */
    private final Set<Integer> due = ConcurrentHashMap.newKeySet();
    /** Tasks whose state was last seen over the limit (logged once per crossing). */
    private final Set<Integer> over = ConcurrentHashMap.newKeySet();

    StateSizeMeasurements(long intervalMs, long maxBytes, ThreadLocal<Kryo> kryo, LongSupplier clock,
                          MeasuredStateSizes published) {
        this.probe = new StateSizeProbe(intervalMs);
        this.intervalMs = intervalMs;
        this.maxBytes = maxBytes;
        this.kryo = kryo;
        this.clock = clock;
        this.published = published;
    }

    /** The measurements the topology's conf asks for, or null: off ({@value HandoffLimits#PROBE_MS} = 0, or malformed). */
    static StateSizeMeasurements of(Map<String, Object> topoConf, long maxBytes, ThreadLocal<Kryo> kryo,
                                    LongSupplier clock) {
        long every;
        try {
            every = HandoffLimits.probeMs(topoConf);
        } catch (IllegalArgumentException e) {
            LOG.error("nonstop: state sizes are not measured, so the scheduler cannot refuse a move of a state over "
                      + "the limit before it happens: {}", e.getMessage());
            return null;
        }
        return every == 0 ? null : new StateSizeMeasurements(every, maxBytes, kryo, clock, MeasuredStateSizes.THIS_WORKER);
    }

    /** Marks due tasks every second, among {@code tasks} (this worker's opting-in tasks, read each time). */
    void start(ScheduledExecutorService scheduler, Supplier<Collection<Integer>> tasks) {
        try {
            scheduler.scheduleWithFixedDelay(LoggedTask.of(LOG, "state size measurements", () -> markDue(tasks.get())),
                                             MARK_EVERY_MS, MARK_EVERY_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("nonstop: worker shutting down; no state size measurements");
        }
    }

    /** The timer's step: the tasks among {@code tasks} whose measurement is due wait for their next tuple. */
    void markDue(Collection<Integer> tasks) {
        due.addAll(probe.due(tasks, clock.getAsLong()));
    }

    /** Cheap: whether any task waits for a measurement (checked on every tuple's path). */
    boolean anyDue() {
        return !due.isEmpty();
    }

    /** On the executor's thread, before its tuple: whether the task is due, and if so, no longer marked. */
    boolean takeDue(int task) {
        return due.remove(task);
    }

    /**
     * On the executor's thread, right after {@link #takeDue} said yes: measures the task's state and records it
     * for the next metrics document.
     *
     * @param state how the task's bolt is handed over, or null when it is not
     */
    void measure(int task, HandoffState<?> state) {
        if (state == null || state instanceof MultilangHandoff) {
            probe.never(task);
            published.forget(task);
            return;
        }
        long start = System.nanoTime();
        long bytes;
        try {
            bytes = serializedBytes(kryo.get(), state.snapshotState(), maxBytes);
        } catch (RuntimeException e) {
            // A move would refuse this state too (handoff_aborted says why); nothing is published for it.
            probe.measured(task, clock.getAsLong(), (System.nanoTime() - start) / 1_000_000);
            published.forget(task);
            LOG.debug("nonstop: task {}: its state could not be measured: {}", task, e.toString());
            return;
        }
        long now = clock.getAsLong();
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        probe.measured(task, now, tookMs);
        boolean overLimit = bytes < 0;
        published.record(task, new MetricsDocument.StateSize(overLimit ? maxBytes + 1 : bytes, overLimit, now));
        if (tookMs >= SLOW_MS) {
            // The executor stood still that long: say so, with when the next measurement comes.
            LOG.info("nonstop: task {}: measuring its state ({}) took {} ms; the next measurement in {} s", task,
                     overLimit ? "over " + maxBytes + " bytes" : bytes + " bytes", tookMs,
                     StateSizeProbe.gapMs(intervalMs, tookMs) / 1000);
        }
        if (overLimit && over.add(task)) {
            LOG.warn("nonstop: task {}: its state is over {} = {} bytes (measured in {} ms); the scheduler will "
                     + "refuse to move it live", task, HandoffLimits.MAX_BYTES, maxBytes, tookMs);
        } else if (!overLimit && over.remove(task)) {
            LOG.info("nonstop: task {}: its state is {} bytes again, within {}", task, bytes, HandoffLimits.MAX_BYTES);
        }
    }

    /** The task left this worker: its size is no longer this worker's to publish. */
    void forget(int task) {
        due.remove(task);
        over.remove(task);
        published.forget(task);
    }

    /**
     * The size {@code snapshot} serialises to with {@code kryo}, or -1 when it is over {@code maxBytes}: counted
     * through a small buffer, never held, and stopped as soon as the count passes the limit.
     */
    static long serializedBytes(Kryo kryo, Object snapshot, long maxBytes) {
        Counter counter = new Counter(maxBytes);
        Output out = new Output(counter, 4096);
        try {
            kryo.writeClassAndObject(out, snapshot);
            out.flush();
        } catch (RuntimeException e) {
            if (counter.over) {
                return -1;   // Kryo may wrap the stop in its own exception (with a serialisation trace)
            }
            throw e;
        }
        return counter.over ? -1 : counter.count;
    }

    /** Counts what Kryo flushes to it; throws once the count passes the limit. */
    private static final class Counter extends OutputStream {
        private final long max;
        private long count;
        private boolean over;

        Counter(long max) {
            this.max = max;
        }

        @Override
        public void write(int b) {
            add(1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            add(len);
        }

        private void add(long n) {
            count += n;
            if (count > max) {
                over = true;
                throw new OverLimit();
            }
        }
    }

    private static final class OverLimit extends RuntimeException {
        OverLimit() {
            super("over the limit", null, false, false);
        }
    }
}
