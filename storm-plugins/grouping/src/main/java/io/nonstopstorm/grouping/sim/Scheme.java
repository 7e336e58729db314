package io.nonstopstorm.grouping.sim;

import io.nonstopstorm.grouping.core.BoundedLoadConsistentHashing;
import io.nonstopstorm.grouping.core.ConsistentGrouping;
import io.nonstopstorm.grouping.core.KeyGrouping;
import io.nonstopstorm.grouping.core.KeyRouter;
import io.nonstopstorm.grouping.core.PartialKeyGrouping;
import io.nonstopstorm.grouping.core.PowerOfRandomChoicesRouter;
import io.nonstopstorm.grouping.core.PowerOfTwoChoices;
import io.nonstopstorm.grouping.core.ShuffleGrouping;

import java.util.Locale;
import java.util.SplittableRandom;

/** The routing schemes the simulator compares; each builds the router of one source. */
public enum Scheme {
    /** Key grouping: hash mod n. */
    KG,
    /** Shuffle grouping: round-robin per source. */
    SG,
    /** Partial key grouping. */
    PKG,
    /** Power of two choices per message. */
    POTC,
    /** Consistent hashing with bounded loads. */
    CH,
    /** Power of random choices, one bin per worker. */
    PORC,
    /** Consistent grouping. */
    CG;

    /** Lower-case name used on the command line and in the JSON output. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Scheme parse(String text) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown scheme '" + text + "' (known: kg, sg, pkg, potc, ch, porc, cg)");
        }
    }

    /** The router of source {@code source}; hash seeds are shared by all sources, random streams are not. */
    KeyRouter router(SimulationConfig config, int workers, int source) {
        int hashSeed = (int) config.seed();
        return switch (this) {
            case KG -> new KeyGrouping(workers, hashSeed);
            case SG -> new ShuffleGrouping(workers, source);
            case PKG -> new PartialKeyGrouping(workers, hashSeed);
            case POTC -> new PowerOfTwoChoices(workers, new SplittableRandom(config.seed() * 1_000_003L + source));
            case CH -> new BoundedLoadConsistentHashing(workers, config.ringCopies(), config.epsilon(), hashSeed);
            case PORC -> new PowerOfRandomChoicesRouter(workers, config.epsilon(), hashSeed);
            case CG -> new ConsistentGrouping(workers, config.virtualWorkersPerWorker(), config.epsilon(), hashSeed);
        };
    }
}
