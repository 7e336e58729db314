package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.core.AnielloOfflineScheduler;
import io.nonstopstorm.scheduling.core.AnielloOnlineScheduler;
import io.nonstopstorm.scheduling.core.ComponentAllocation;
import io.nonstopstorm.scheduling.core.DefaultRoundRobinMapping;
import io.nonstopstorm.scheduling.core.ElasticAllocator;
import io.nonstopstorm.scheduling.core.SlotAwareMapping;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.storm.baseline.StormBaselinePlanner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The schedulers an offline run can use, by name. Each adapts one existing core; none re-implements one. */
public final class Planners {

    private static final Map<String, Planner> BY_NAME = new LinkedHashMap<>();

    static {
        add(new SequentialPlanner("aniello-offline",
                "Aniello et al. offline: topology-based, round-robin along the DAG; ignores traffic and loads",
                (w, cluster, p) -> new AnielloOfflineScheduler(p.aniello().alpha(), p.aniello().beta())
                        .schedule(w.topology(), cluster).map(TopologyPlan::of)));
        add(new SequentialPlanner("aniello-online",
                "Aniello et al. online: traffic-based greedy (executors to workers, workers to nodes) under CPU capacity",
                (w, cluster, p) -> new AnielloOnlineScheduler(p.aniello().alpha(), false)
                        .schedule(w.topology(), cluster, w.traffic(), w.loads(), w.current()).map(TopologyPlan::of)));
        add(new SequentialPlanner("aniello-online-refined",
                "aniello-online plus local search (moves and swaps that strictly cut inter-node traffic)",
                (w, cluster, p) -> new AnielloOnlineScheduler(p.aniello().alpha(), true)
                        .schedule(w.topology(), cluster, w.traffic(), w.loads(), w.current()).map(TopologyPlan::of)));
        add(new SequentialPlanner("dsm",
                "Default Storm Mapping (Shukla & Simmhan Alg. 4): executor k to slot k mod W; resource-blind",
                (w, cluster, p) -> DefaultRoundRobinMapping.map(w.topology(), cluster).map(TopologyPlan::of)));
        add(new SequentialPlanner("sam",
                "Slot-Aware Mapping (Shukla & Simmhan Alg. 6) from per-component allocations (given or derived from loads)",
                (w, cluster, p) -> SamAllocations.of(w, cluster, p.sam().of(w.id()))
                        .flatMap(a -> samPlace(w, cluster, a))));
        add(new SequentialPlanner("elastic",
                "Elastic Allocator GMA: balances node CPU and bandwidth under D_CPU / D_BW within a time budget",
                Planners::elastic));
        add(new SequentialPlanner("otd",
                "OTD: one round from the current placement, at most one executor moved",
                (w, cluster, p) -> OtdRound.run(w, cluster, p.otd()).map(r ->
                        new TopologyPlan(r.placement(), List.of(OtdRound.describe(r.decision()))))));
        add(new StormBaselinePlanner(StormBaselinePlanner.Kind.DEFAULT));
        add(new StormBaselinePlanner(StormBaselinePlanner.Kind.RESOURCE_AWARE));
        add(new SequentialPlanner("optimum",
                "exact minimum inter-node traffic under the online scheduler's constraints (small instances only)",
                OptimumPlacement::place));
    }

    private Planners() {
    }

    private static void add(Planner p) {
        BY_NAME.put(p.name(), p);
    }

    public static Optional<Planner> named(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    public static List<String> names() {
        return Collections.unmodifiableList(new ArrayList<>(BY_NAME.keySet()));
    }

    public static List<Planner> all() {
        return List.copyOf(BY_NAME.values());
    }

    private static Outcome<TopologyPlan> samPlace(TopologyWorkload w, ClusterModel cluster,
                                                  Map<String, ComponentAllocation> allocation) {
        return SlotAwareMapping.map(w.topology(), cluster, allocation).map(TopologyPlan::of);
    }

    private static Outcome<TopologyPlan> elastic(TopologyWorkload w, ClusterModel cluster,
                                                 SchedulerParams p) {
        return new ElasticAllocator(p.elastic(), System::nanoTime)
                .place(w.topology(), cluster, w.loads(), w.traffic(), w.current())
                .map(r -> new TopologyPlan(r.placement(), r.spreadBestEffort().isEmpty() ? List.of()
                        : List.of(r.spreadBestEffort().size() + " executor(s) spread best-effort: the limits or the "
                        + "time budget ran out before GMA placed them")));
    }
}
