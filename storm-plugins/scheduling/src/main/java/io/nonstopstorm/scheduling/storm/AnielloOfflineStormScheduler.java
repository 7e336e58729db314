package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.core.AnielloOfflineScheduler;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.TopologyModel;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.TopologyDetails;

import java.util.Set;

/**
 * Aniello et al.'s offline (topology-based) scheduler as a Nimbus plugin. It places a topology when some of
 * its executors are unassigned (new topology, lost worker) and otherwise leaves it alone, so repeated
 * Nimbus rounds change nothing.
 *
 * <p>Topology config: {@code nonstop.scheduler: aniello-offline}, {@code nonstop.aniello.alpha} (default
 * 0: even split), {@code nonstop.aniello.beta} (default 0.5; the paper gives no default).
 */
public class AnielloOfflineStormScheduler extends ConfiguredScheduler {

    public static final String NAME = "aniello-offline";
    public static final String ALPHA_KEY = "nonstop.aniello.alpha";
    public static final String BETA_KEY = "nonstop.aniello.beta";
    static final double DEFAULT_ALPHA = 0;
    static final double DEFAULT_BETA = 0.5;

    public AnielloOfflineStormScheduler() {
        super(NAME, Set.of(), false);
    }

    @Override
    protected Outcome<Step> plan(TopologyDetails td, Cluster cluster) {
        if (cluster.getUnassignedExecutors(td).isEmpty()) {
            return Outcome.success(Step.keep("all executors placed"));
        }
        return offlinePlacement(td, cluster, this);
    }

    /** Shared with the online scheduler, which starts from the offline placement. */
    static Outcome<Step> offlinePlacement(TopologyDetails td, Cluster cluster, ConfiguredScheduler owner) {
        TopologyConf conf = new TopologyConf(td.getConf());
        double alpha = conf.unitInterval(ALPHA_KEY, DEFAULT_ALPHA);
        double beta = conf.unitInterval(BETA_KEY, DEFAULT_BETA);
        TopologyModel topology = StormModelMapper.topology(td);
        ClusterModel model = StormModelMapper.cluster(cluster, owner::nodeCapacity, node -> 0.0);
        return new AnielloOfflineScheduler(alpha, beta).schedule(topology, model)
                .map(p -> Step.apply(p, String.format("offline placement (alpha=%s, beta=%s) on %d worker(s)",
                        alpha, beta, p.usedSlots().size())));
    }
}
