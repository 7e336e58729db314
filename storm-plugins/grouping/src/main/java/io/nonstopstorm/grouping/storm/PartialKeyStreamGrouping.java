package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.core.KeyRouter;
import io.nonstopstorm.grouping.core.PartialKeyGrouping;

import java.util.List;

/** PKG as a Storm grouping (our routing core; Storm's own PartialKeyGrouping differs in hashing). */
public class PartialKeyStreamGrouping extends RoutingStreamGrouping {
    private static final long serialVersionUID = 1L;

    public PartialKeyStreamGrouping() {
        this(List.of());
    }

    public PartialKeyStreamGrouping(List<String> keyFields) {
        super(keyFields);
    }

    @Override
    protected KeyRouter createRouter(EdgeContext edge, int sourceTask) {
        return new PartialKeyGrouping(edge.workers(), DEFAULT_SEED);
    }
}
