package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.core.KeyRouter;
import io.nonstopstorm.grouping.core.PowerOfTwoChoices;

import java.util.List;
import java.util.SplittableRandom;

/**
 * PoTC as a Storm grouping: two random workers per tuple, the less loaded by this source's count
 * wins; key fields are ignored. Randomness is seeded from {@code seed} and the source task id, so a
 * topology replays the same choices.
 */
public class PowerOfTwoChoicesStreamGrouping extends RoutingStreamGrouping {
    private static final long serialVersionUID = 1L;

    private final long seed;

    public PowerOfTwoChoicesStreamGrouping() {
        this(DEFAULT_SEED);
    }

    public PowerOfTwoChoicesStreamGrouping(long seed) {
        super(List.of());
        this.seed = seed;
    }

    @Override
    protected KeyRouter createRouter(EdgeContext edge, int sourceTask) {
        return new PowerOfTwoChoices(edge.workers(), new SplittableRandom(seed * 31 + sourceTask));
    }
}
