package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.core.BoundedLoadConsistentHashing;
import io.nonstopstorm.grouping.core.GroupingDefaults;
import io.nonstopstorm.grouping.core.KeyRouter;

import java.util.List;

/**
 * CH (consistent hashing with bounded loads) as a Storm grouping. Arguments: key fields, epsilon
 * (default {@value GroupingDefaults#EPSILON}) and ring points per worker (default
 * {@value GroupingDefaults#RING_COPIES_PER_WORKER}). Loads are this source's own counts.
 */
public class BoundedConsistentHashStreamGrouping extends RoutingStreamGrouping {
    private static final long serialVersionUID = 1L;

    private final double epsilon;
    private final int copiesPerWorker;

    public BoundedConsistentHashStreamGrouping() {
        this(List.of());
    }

    public BoundedConsistentHashStreamGrouping(List<String> keyFields) {
        this(keyFields, GroupingDefaults.EPSILON, GroupingDefaults.RING_COPIES_PER_WORKER);
    }

    public BoundedConsistentHashStreamGrouping(List<String> keyFields, double epsilon, int copiesPerWorker) {
        super(keyFields);
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        if (copiesPerWorker <= 0) {
            throw new IllegalArgumentException("copiesPerWorker must be positive, got " + copiesPerWorker);
        }
        this.epsilon = epsilon;
        this.copiesPerWorker = copiesPerWorker;
    }

    @Override
    protected KeyRouter createRouter(EdgeContext edge, int sourceTask) {
        return new BoundedLoadConsistentHashing(edge.workers(), copiesPerWorker, epsilon, DEFAULT_SEED);
    }
}
