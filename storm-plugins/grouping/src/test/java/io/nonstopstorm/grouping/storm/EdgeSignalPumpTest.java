package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.signal.DelegationPolicy;
import io.nonstopstorm.grouping.signal.LoadReportDelegation;
import io.nonstopstorm.grouping.signal.LoadSignal;
import io.nonstopstorm.grouping.signal.SignalLog;
import io.nonstopstorm.grouping.signal.WorkerSignal;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EdgeSignalPumpTest {
    private static final DelegationPolicy POLICY = new DelegationPolicy(0.7, 0.9, 4_000);

    private final List<String> documents = new ArrayList<>();
    private final AtomicLong now = new AtomicLong();
    private boolean failRead;

    /** Window {@code seq} of two worker processes (2 s windows ending at 500 + 2 000 seq and 200 + 2 000 seq). */
    private void publish(long seq, double busy10, double busy11, double busy12) {
        documents.clear();
        documents.add(LoadDocuments.document(1, seq, 500 + 2_000 * seq, 2.0, "count", Map.of(10, busy10, 11, busy11)));
        documents.add(LoadDocuments.document(2, seq, 200 + 2_000 * seq, 2.0, "count", Map.of(12, busy12)));
        documents.add("{\"schema\": \"something.else\"}"); // skipped, the others still read
        now.set(600 + 2_000 * seq);
    }

    @Test
    void readsTheTargetComponentsLoadsFromEveryWorkerAndSkipsWhatItCannotRead() {
        SignalLog log = new SignalLog();
        EdgeSignalPump pump = new EdgeSignalPump("s:default->count", () -> {
            if (failRead) {
                throw new IOException("connection loss");
            }
            return List.copyOf(documents);
        }, "count", new LoadReportDelegation(POLICY, List.of(10, 11, 12), 10_000), log, now::get);

        publish(1, 0.5, 0.5, 0.5);
        assertEquals(List.of(), pump.pump(), "no slot starts in these windows");
        publish(2, 0.99, 0.8, 0.1); // slot 1 starts at 4 000
        assertEquals(List.of(new WorkerSignal(0, LoadSignal.DECREASE), new WorkerSignal(2, LoadSignal.INCREASE)),
                pump.pump());
        publish(3, 0.5, 0.5, 0.5);
        failRead = true;
        assertEquals(List.of(), pump.pump(), "a failed read publishes nothing");
        failRead = false;
        publish(4, 0.99, 0.1, 0.1); // slot 2 starts at 8 000, but window 3 was never read
        assertEquals(List.of(), pump.pump(), "utilisation unknown without the window before");
        publish(5, 0.5, 0.5, 0.5);
        assertEquals(List.of(), pump.pump());
        publish(6, 0.95, 0.5, 0.5); // slot 3 starts at 12 000
        assertEquals(List.of(new WorkerSignal(0, LoadSignal.DECREASE), new WorkerSignal(1, LoadSignal.INCREASE),
                new WorkerSignal(2, LoadSignal.INCREASE)), pump.pump());
        assertEquals(5, log.poll(3).size());
    }
}
