package org.apache.storm.daemon.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import io.nonstopstorm.metrics.hook.MeasuredStateSizes;
import io.nonstopstorm.migration.state.HandoffLimits;
import io.nonstopstorm.migration.state.HandoffState;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StateSizeMeasurementsTest {

    private static Kryo kryo() {
        Kryo k = new Kryo();
        k.setRegistrationRequired(false);
        return k;
    }

    private static Map<String, Long> counts(int words) {
        Map<String, Long> m = new HashMap<>();
        for (int i = 0; i < words; i++) {
            m.put("word-" + i, (long) i);
        }
        return m;
    }

    private static long bytesAsSent(Object snapshot) {
        Output out = new Output(4096, -1);
        kryo().writeClassAndObject(out, snapshot);
        return out.total();
    }

    @Test
    void theCountIsTheSizeAMoveWouldSend() {
        Map<String, Long> state = counts(5_000);     // well past the 4 KiB buffer: counted over many flushes
        assertEquals(bytesAsSent(state), StateSizeMeasurements.serializedBytes(kryo(), state, Long.MAX_VALUE));
    }

    @Test
    void aStateOverTheLimitIsReportedAsSoWithoutSerialisingItAll() {
        Map<String, Long> state = counts(5_000);
        long size = bytesAsSent(state);
        assertEquals(-1, StateSizeMeasurements.serializedBytes(kryo(), state, size - 1));
        assertEquals(size, StateSizeMeasurements.serializedBytes(kryo(), state, size));
    }

    private record Counting(Map<String, Long> state, AtomicInteger snapshots) implements HandoffState<Map<String, Long>> {
        @Override
        public Map<String, Long> snapshotState() {
            snapshots.incrementAndGet();
            return state;
        }

        @Override
        public void restoreState(Map<String, Long> snapshot) {
        }
    }

    @Test
    void aDueTaskIsMeasuredAtItsNextTupleOnceAndPublishedWithItsLimitFlag() {
        AtomicLong now = new AtomicLong(1_000);
        MeasuredStateSizes published = new MeasuredStateSizes();
        StateSizeMeasurements m = new StateSizeMeasurements(10_000, 100, ThreadLocal.withInitial(
            StateSizeMeasurementsTest::kryo), now::get, published);
        Counting small = new Counting(counts(2), new AtomicInteger());
        Counting large = new Counting(counts(500), new AtomicInteger());

        assertFalse(m.takeDue(3));                      // not due: nothing measured
        assertFalse(m.anyDue());

        markDue(m, 3, 5);
        assertTrue(m.anyDue());
        assertTrue(m.takeDue(3));
        m.measure(3, small);
        assertFalse(m.takeDue(3));                      // measured once per mark
        assertTrue(m.takeDue(5));
        m.measure(5, large);
        assertFalse(m.anyDue());
        assertEquals(1, small.snapshots().get());
        MetricsDocument.StateSize s3 = published.snapshot().get(3);
        MetricsDocument.StateSize s5 = published.snapshot().get(5);
        assertEquals(new MetricsDocument.StateSize(StateSizeMeasurements.serializedBytes(kryo(), counts(2), 100), false,
                                                   1_000), s3);
        assertEquals(new MetricsDocument.StateSize(101, true, 1_000), s5);   // limit + 1: a lower bound

        m.forget(5);
        assertNull(published.snapshot().get(5));
    }

    @Test
    void aTaskWithoutAHandoffIsNeverMeasuredAgain() {
        MeasuredStateSizes published = new MeasuredStateSizes();
        StateSizeMeasurements m = new StateSizeMeasurements(1, 100, ThreadLocal.withInitial(StateSizeMeasurementsTest::kryo),
                                                            () -> 0, published);
        markDue(m, 7);
        assertTrue(m.takeDue(7));
        m.measure(7, null);
        assertTrue(published.snapshot().isEmpty());
        markDue(m, 7);
        assertFalse(m.anyDue(), "never due again");
    }

    @Test
    void theIntervalComesFromTheTopologyConfAndZeroOrGarbageTurnsItOff() {
        ThreadLocal<Kryo> k = ThreadLocal.withInitial(StateSizeMeasurementsTest::kryo);
        assertNull(StateSizeMeasurements.of(Map.of(HandoffLimits.PROBE_MS, 0), 100, k, () -> 0));
        assertNull(StateSizeMeasurements.of(Map.of(HandoffLimits.PROBE_MS, "soon"), 100, k, () -> 0));
        assertNull(StateSizeMeasurements.of(Map.of(HandoffLimits.PROBE_MS, -5), 100, k, () -> 0));
        assertTrue(StateSizeMeasurements.of(Map.of(), 100, k, () -> 0) != null);
        assertThrows(IllegalArgumentException.class, () -> HandoffLimits.probeMs(Map.of(HandoffLimits.PROBE_MS, -1)));
        assertEquals(HandoffLimits.DEFAULT_PROBE_MS, HandoffLimits.probeMs(Map.of()));
    }

    /** What the timer does each second, for tasks never measured (due at once). */
    private static void markDue(StateSizeMeasurements m, Integer... tasks) {
        m.markDue(java.util.List.of(tasks));
    }
}
