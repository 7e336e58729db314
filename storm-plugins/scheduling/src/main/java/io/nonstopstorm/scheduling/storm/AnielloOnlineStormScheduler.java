package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.core.AnielloOnlineScheduler;
import io.nonstopstorm.scheduling.core.AnielloRescheduleRule;
import io.nonstopstorm.scheduling.core.RescheduleDecision;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.TopologyDetails;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Aniello et al.'s online (traffic-based) scheduler as a Nimbus plugin. A topology with unassigned
 * executors gets the offline placement first; afterwards, once every period P, a candidate is computed
 * from the measured traffic and loads and applied if {@link AnielloRescheduleRule} says so. A candidate
 * that cannot be computed leaves the running placement alone.
 *
 * <p>Topology config: {@code nonstop.scheduler: aniello-online}; {@code nonstop.aniello.alpha},
 * {@code nonstop.aniello.beta} (see the offline scheduler); {@code nonstop.aniello.period.secs} (P,
 * default 60); {@code nonstop.aniello.improvement.percent} (R, default 10);
 * {@code nonstop.aniello.overload.window.secs} (X, default 30); {@code nonstop.aniello.refine} (default
 * false: the paper's greedy only). The paper states no defaults for P, R, X.
 *
 * <p>Node capacity B_i ({@code nonstop.node.capacity}, Hz): by default the node's measured CPU, its
 * {@code cpu_count} × {@code cpu_mhz} × 10⁶ (the paper's CPU_i = cores × core speed); a node without a
 * reading gets the mean of the measured ones, and with none measured capacity is unbounded. A number or
 * {@code unbounded} overrides it ({@code pycontrol cluster up} sets {@code unbounded}: its nodes share one
 * machine, so each node's measured load is the whole machine's and a per-node bound means nothing).
 *
 * <p>Per topology it remembers when the last candidate was computed; topologies gone from the cluster are
 * forgotten every round.
 */
public class AnielloOnlineStormScheduler extends ConfiguredScheduler {

    public static final String NAME = "aniello-online";
    public static final String PERIOD_KEY = "nonstop.aniello.period.secs";
    public static final String IMPROVEMENT_KEY = "nonstop.aniello.improvement.percent";
    public static final String WINDOW_KEY = "nonstop.aniello.overload.window.secs";
    public static final String REFINE_KEY = "nonstop.aniello.refine";

    private final SchedulingMetrics metrics;
    private final LongSupplier clockMillis;
    private final Map<String, Long> lastCandidateMillis = new HashMap<>();

    /** Standalone, without measurements (it then only places offline); the dispatcher wires the metrics plane. */
    public AnielloOnlineStormScheduler() {
        this(SchedulingMetrics.none(), System::currentTimeMillis);
    }

    public AnielloOnlineStormScheduler(SchedulingMetrics metrics, LongSupplier clockMillis) {
        super(NAME, Set.of(), true);
        this.metrics = metrics;
        this.clockMillis = clockMillis;
    }

    @Override
    protected void forgetAllBut(Set<String> aliveTopologyIds) {
        lastCandidateMillis.keySet().retainAll(aliveTopologyIds);
    }

    /** Topologies whose candidate timer is kept (for tests). */
    Set<String> remembered() {
        return Set.copyOf(lastCandidateMillis.keySet());
    }

    @Override
    protected OptionalDouble measuredNodeCapacity(String nodeId) {
        Map<String, Double> measured = metrics.nodeCapacity();
        Double own = measured.get(nodeId);
        if (own != null) {
            return OptionalDouble.of(own);
        }
        return measured.values().stream().mapToDouble(Double::doubleValue).average();
    }

    @Override
    protected Outcome<Step> plan(TopologyDetails td, Cluster cluster) {
        if (!cluster.getUnassignedExecutors(td).isEmpty()) {
            return AnielloOfflineStormScheduler.offlinePlacement(td, cluster, this);
        }
        TopologyConf conf = new TopologyConf(td.getConf());
        double alpha = conf.unitInterval(AnielloOfflineStormScheduler.ALPHA_KEY, AnielloOfflineStormScheduler.DEFAULT_ALPHA);
        long periodMillis = (long) (1000 * conf.nonNegative(PERIOD_KEY, 60));
        double improvement = conf.nonNegative(IMPROVEMENT_KEY, 10);
        long windowMillis = (long) (1000 * conf.nonNegative(WINDOW_KEY, 30));
        boolean refine = conf.flag(REFINE_KEY, false);

        long now = clockMillis.getAsLong();
        long last = lastCandidateMillis.getOrDefault(td.getId(), -1L);
        if (!AnielloRescheduleRule.periodElapsed(last, now, periodMillis)) {
            return Outcome.success(Step.keep("next candidate in " + (periodMillis - (now - last)) / 1000 + " s"));
        }
        lastCandidateMillis.put(td.getId(), now);
        Optional<TrafficMatrix> traffic = metrics.traffic(td.getId());
        if (traffic.isEmpty()) {
            return Outcome.success(Step.keep("no traffic measurements yet"));
        }
        TopologyModel topology = StormModelMapper.topology(td);
        Map<String, Double> background = metrics.backgroundLoad(td.getId());
        ClusterModel model = StormModelMapper.cluster(cluster, this::nodeCapacity, n -> background.getOrDefault(n, 0.0));
        ExecutorLoads loads = metrics.executorLoads(td.getId());
        Placement current = StormModelMapper.placement(cluster, td.getId());
        Outcome<Placement> candidate = new AnielloOnlineScheduler(alpha, refine)
                .schedule(topology, model, traffic.get(), loads, current);
        if (candidate instanceof Outcome.Failure<Placement> f) {
            return Outcome.success(Step.keep("no candidate (" + f.reason() + "); keeping the current placement"));
        }
        RescheduleDecision decision = new AnielloRescheduleRule(improvement, windowMillis, Map.of())
                .decide(topology, model, traffic.get(), loads, current, candidate.orElseThrow(), metrics.nodeLoadHistory(), now);
        return Outcome.success(decision.apply()
                ? Step.apply(candidate.orElseThrow(), "rescheduled: " + decision.reason())
                : Step.keep("kept: " + decision.reason()));
    }
}
