package io.nonstopstorm.grouping.signal;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SignalLogTest {
    @Test
    void everySourceReadsTheWholeLogOnceWhenEverItJoins() {
        SignalLog log = new SignalLog();
        log.publish(2, LoadSignal.DECREASE);
        List<WorkerSignal> early = log.poll(1);
        log.publish(0, LoadSignal.INCREASE);
        assertEquals(List.of(new WorkerSignal(2, LoadSignal.DECREASE)), early);
        assertEquals(List.of(new WorkerSignal(0, LoadSignal.INCREASE)), log.poll(1));
        assertEquals(List.of(), log.poll(1));
        assertEquals(List.of(new WorkerSignal(2, LoadSignal.DECREASE), new WorkerSignal(0, LoadSignal.INCREASE)),
                log.poll(9), "a source that joins late replays from the start");
        assertEquals(2, log.size());
    }
}
