package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.core.RandomPlacement;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.TopologyModel;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.TopologyDetails;

/**
 * The Random placement baseline ({@link RandomPlacement}) as a Nimbus plugin: {@code nonstop.scheduler: random}.
 * It places a topology whose executors are unassigned and leaves a placed one alone. The draw is seeded
 * by {@value #SEED_KEY} in the topology conf (a whole number &gt;= 0), else by the topology id, which
 * differs between submissions: each submission gets its own placement, and a seed repeats one.
 */
public class RandomStormScheduler extends ConfiguredScheduler {

    public static final String NAME = "random";
    public static final String SEED_KEY = "nonstop.random.seed";

    private final Function<Long, RandomGenerator> randomOfSeed;

    public RandomStormScheduler() {
        this(Random::new);
    }

    /** For tests: the generator made from a seed. */
    RandomStormScheduler(Function<Long, RandomGenerator> randomOfSeed) {
        super(NAME, Set.of("random-placement"), false);
        this.randomOfSeed = randomOfSeed;
    }

    @Override
    protected Outcome<Step> plan(TopologyDetails td, Cluster cluster) {
        if (cluster.getUnassignedExecutors(td).isEmpty()) {
            return Outcome.success(Step.keep("all executors placed"));
        }
        long seed;
        Object raw = td.getConf().get(SEED_KEY);
        if (raw == null) {
            seed = td.getId().hashCode() & 0x7fffffffL;   // a valid value of the key, so it can be repeated
        } else if (raw instanceof Number n && n.doubleValue() >= 0 && n.doubleValue() == Math.rint(n.doubleValue())) {
            seed = n.longValue();
        } else {
            return Outcome.failure(SEED_KEY + " must be a whole number >= 0, got " + raw);
        }
        TopologyModel topology = StormModelMapper.topology(td);
        ClusterModel model = StormModelMapper.cluster(cluster, s -> 0.0, s -> 0.0);
        return RandomPlacement.place(topology, model, StormModelMapper.placement(cluster, td.getId()), randomOfSeed.apply(seed))
                .map(p -> Step.apply(p, String.format("random placement (seed %d) on %d slot(s) of %d node(s)",
                        seed, p.usedSlots().size(), p.usedNodes().size())));
    }
}
