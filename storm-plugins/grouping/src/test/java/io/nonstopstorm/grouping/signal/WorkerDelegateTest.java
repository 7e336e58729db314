package io.nonstopstorm.grouping.signal;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.nonstopstorm.grouping.signal.LoadSignal.DECREASE;
import static io.nonstopstorm.grouping.signal.LoadSignal.INCREASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WorkerDelegateTest {
    private static final DelegationPolicy POLICY = new DelegationPolicy(0.7, 0.9, 100);

    @Test
    void signalsOnlyOutsideTheBand() {
        WorkerDelegate delegate = new WorkerDelegate(POLICY, 0);
        assertEquals(Optional.empty(), delegate.observe(100, 0.8));
        assertEquals(Optional.of(DECREASE), delegate.observe(200, 0.95));
        assertEquals(Optional.of(INCREASE), delegate.observe(300, 0.5));
        assertEquals(Optional.empty(), delegate.observe(400, 0.7), "the bounds belong to the band");
        assertEquals(Optional.empty(), delegate.observe(500, 0.9));
    }

    @Test
    void waitsAtLeastOneTimeSlotAfterStartingAndAfterEachSignal() {
        WorkerDelegate delegate = new WorkerDelegate(POLICY, 1_000);
        assertEquals(Optional.empty(), delegate.observe(1_050, 2.0), "not a full slot since start");
        assertEquals(Optional.of(DECREASE), delegate.observe(1_100, 2.0));
        assertEquals(Optional.empty(), delegate.observe(1_199, 2.0));
        assertEquals(Optional.of(DECREASE), delegate.observe(1_200, 2.0));
    }

    @Test
    void rejectsInconsistentPolicies() {
        assertThrows(IllegalArgumentException.class, () -> new DelegationPolicy(0.9, 0.7, 10));
        assertThrows(IllegalArgumentException.class, () -> new DelegationPolicy(0.5, 0.5, 10));
        assertThrows(IllegalArgumentException.class, () -> new DelegationPolicy(0.5, 0.9, 0));
    }

    @Test
    void broadcastReachesEverySubscribedSourceOnceAndInOrder() {
        BroadcastLoadSignals path = new BroadcastLoadSignals();
        path.subscribe(7);
        path.subscribe(8);
        path.publish(2, DECREASE);
        path.publish(1, INCREASE);
        List<WorkerSignal> expected = List.of(new WorkerSignal(2, DECREASE), new WorkerSignal(1, INCREASE));
        assertEquals(expected, path.poll(7));
        assertEquals(List.of(), path.poll(7));
        assertEquals(expected, path.poll(8));
        assertEquals(List.of(), path.poll(9), "a source joining late misses older signals");
        path.publish(0, INCREASE);
        assertEquals(List.of(new WorkerSignal(0, INCREASE)), path.poll(9));
    }

    @Test
    void inProcessReporterAppliesThePolicyTheGroupingRegistered() {
        InProcessLoadSignals.clear();
        InProcessLoadSignals.Reporter reporter = InProcessLoadSignals.reporter("spout:default->count", 3, 0);
        assertEquals(Optional.empty(), reporter.report(10_000, 5.0), "no grouping has opened the channel yet");
        LoadSignals source = new InProcessLoadSignals().open("spout:default->count", new DelegationPolicy(0.2, 0.6, 1_000));
        source.poll(42);
        assertEquals(Optional.empty(), reporter.report(500, 5.0), "within the first time slot");
        assertEquals(Optional.of(DECREASE), reporter.report(1_000, 5.0));
        assertEquals(List.of(new WorkerSignal(3, DECREASE)), source.poll(42));
        assertEquals(List.of(), new InProcessLoadSignals().open("other", POLICY).poll(42), "channels are separate");
        InProcessLoadSignals.clear();
    }
}
