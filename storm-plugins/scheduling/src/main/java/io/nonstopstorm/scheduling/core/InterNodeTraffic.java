package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The objective of the traffic-aware schedulers: tuples/s that cross a node boundary (Aniello et al.
 * eq. 3, with "≠" where the seed prints "="). Flows with an unplaced endpoint do not count.
 */
public final class InterNodeTraffic {

    private InterNodeTraffic() {
    }

    /** Tuples/s between executors placed on different nodes. */
    public static double of(TrafficMatrix traffic, Placement placement) {
        return crossing(traffic, e -> placement.slotOf(e).map(SlotId::nodeId).orElse(null));
    }

    /** Tuples/s between executors placed in different slots (workers), including same-node ones. */
    public static double betweenSlots(TrafficMatrix traffic, Placement placement) {
        return crossing(traffic, e -> placement.slotOf(e).orElse(null));
    }

    /** Tuples/s between executors whose {@code group} differs; executors mapped to {@code null} are skipped. */
    public static double crossing(TrafficMatrix traffic, Function<ExecutorId, ?> group) {
        double sum = 0;
        for (Map.Entry<TrafficMatrix.Flow, Double> f : traffic.flows().entrySet()) {
            Object a = group.apply(f.getKey().from());
            Object b = group.apply(f.getKey().to());
            if (a != null && b != null && !Objects.equals(a, b)) {
                sum += f.getValue();
            }
        }
        return sum;
    }
}
