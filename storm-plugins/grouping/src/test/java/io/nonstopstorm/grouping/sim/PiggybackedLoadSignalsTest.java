package io.nonstopstorm.grouping.sim;

import io.nonstopstorm.grouping.signal.WorkerSignal;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.nonstopstorm.grouping.signal.LoadSignal.DECREASE;
import static io.nonstopstorm.grouping.signal.LoadSignal.INCREASE;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PiggybackedLoadSignalsTest {

    @Test
    void aSignalReachesASourceOnlyWithAnAckToThatSource() {
        PiggybackedLoadSignals path = new PiggybackedLoadSignals(3, 2);
        path.publish(1, DECREASE);
        path.publish(1, INCREASE);
        assertEquals(List.of(), path.poll(0));
        path.acknowledged(2, 0); // another worker's ack carries nothing of worker 1
        assertEquals(List.of(), path.poll(0));
        path.acknowledged(1, 0);
        assertEquals(List.of(new WorkerSignal(1, DECREASE), new WorkerSignal(1, INCREASE)), path.poll(0));
        assertEquals(List.of(), path.poll(0));
        assertEquals(List.of(), path.poll(1), "source 1 got no ack from worker 1 yet");
        path.acknowledged(1, 1);
        assertEquals(2, path.poll(1).size());
    }
}
