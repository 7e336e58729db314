package io.nonstopstorm.grouping.signal;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Worker delegation as a function of the published load windows, so that every reader of the same windows
 * reaches the same decision without talking to the others. Time is cut into slots of the policy's length
 * on the reporting worker's clock ({@code [k*T, (k+1)*T)}); the window that contains the start of slot k
 * decides the worker's signal for slot k from its {@link Utilisation} (which also needs the window before
 * it): DECREASE above the busy threshold, INCREASE below the idle one, nothing in between or when the
 * utilisation is unknown. So a worker signals at most once per slot, and one slot after the last signal
 * at the earliest, as the paper's delegation does.
 */
public final class SlotDelegation {
    private SlotDelegation() {
    }

    /** The slot whose start falls inside {@code (windowStart, windowEnd]}, if any (the latest, for long windows). */
    public static OptionalLong decidingSlot(TaskLoad load, long slotMs) {
        if (slotMs <= 0) {
            throw new IllegalArgumentException("time slot must be positive, got " + slotMs);
        }
        long last = Math.floorDiv(load.windowEndMs(), slotMs);
        return last > Math.floorDiv(load.windowStartMs(), slotMs) ? OptionalLong.of(last) : OptionalLong.empty();
    }

    /** The signal {@code current} decides (with {@code previous}, the window before it), if any. */
    public static Optional<LoadSignal> decide(DelegationPolicy policy, TaskLoad previous, TaskLoad current) {
        if (decidingSlot(current, policy.timeSlot()).isEmpty()) {
            return Optional.empty();
        }
        Double utilisation = Utilisation.of(previous, current);
        return utilisation == null ? Optional.empty() : Optional.ofNullable(policy.classify(utilisation));
    }
}
