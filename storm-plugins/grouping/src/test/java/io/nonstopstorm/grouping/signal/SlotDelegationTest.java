package io.nonstopstorm.grouping.signal;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SlotDelegationTest {
    private static final DelegationPolicy POLICY = new DelegationPolicy(0.7, 0.9, 10_000);

    private static TaskLoad window(long seq, long endMs, double seconds, Double busy) {
        return new TaskLoad(7, 1, seq, endMs, seconds, busy, 100, 0);
    }

    @Test
    void onlyTheWindowHoldingASlotStartDecides() {
        assertEquals(OptionalLong.of(3), SlotDelegation.decidingSlot(window(1, 31_000, 2.0, 0.5), 10_000));
        assertEquals(OptionalLong.empty(), SlotDelegation.decidingSlot(window(1, 29_000, 2.0, 0.5), 10_000));
        assertEquals(OptionalLong.of(3), SlotDelegation.decidingSlot(window(1, 30_000, 2.0, 0.5), 10_000),
                "a window ending exactly on the slot start holds it");
        assertEquals(OptionalLong.empty(), SlotDelegation.decidingSlot(window(1, 32_000, 2.0, 0.5), 10_000),
                "(start, end]: the window starting on the boundary does not");
        assertEquals(OptionalLong.of(5), SlotDelegation.decidingSlot(window(1, 50_500, 25.0, 0.5), 10_000),
                "a window longer than a slot decides the latest slot it holds");
    }

    @Test
    void theDecidingWindowSignalsOutsideTheBandOnlyAndOnlyWithItsPredecessor() {
        TaskLoad before = window(4, 28_500, 2.0, 0.5);
        assertEquals(Optional.of(LoadSignal.DECREASE), SlotDelegation.decide(POLICY, before, window(5, 30_500, 2.0, 0.95)));
        assertEquals(Optional.of(LoadSignal.INCREASE), SlotDelegation.decide(POLICY, before, window(5, 30_500, 2.0, 0.40)));
        assertEquals(Optional.empty(), SlotDelegation.decide(POLICY, before, window(5, 30_500, 2.0, 0.80)));
        assertEquals(Optional.empty(), SlotDelegation.decide(POLICY, before, window(5, 30_500, 2.0, null)), "unknown load");
        assertEquals(Optional.empty(), SlotDelegation.decide(POLICY, null, window(5, 30_500, 2.0, 0.99)),
                "without the window before, the queue's growth is unknown");
        assertEquals(Optional.empty(), SlotDelegation.decide(POLICY, window(5, 33_500, 2.0, 0.5), window(6, 35_500, 2.0, 0.99)),
                "not a deciding window");
    }
}
