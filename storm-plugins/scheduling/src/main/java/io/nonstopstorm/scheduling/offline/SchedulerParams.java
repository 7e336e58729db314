package io.nonstopstorm.scheduling.offline;

import io.nonstopstorm.scheduling.core.ComponentAllocation;
import io.nonstopstorm.scheduling.core.ElasticAllocator;
import io.nonstopstorm.scheduling.otd.OtdParams;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The tunables of every scheduler an offline run can use; each scheduler reads its own part.
 *
 * @param aniello  α and β of the Aniello schedulers (α also bounds executors per worker for the optimum)
 * @param elastic  the Elastic Allocator's limits and time budget
 * @param otd      OTD's thresholds and the executors it must not move
 * @param optimum  size limits of the exact search
 * @param sam      model-based allocations per component; components missing get one derived from loads
 * @param stormRas Storm's resource-aware scheduler: strategy class and worker heap limit
 */
public record SchedulerParams(Aniello aniello, ElasticAllocator.Params elastic, Otd otd, Optimum optimum, Sam sam,
                              StormRas stormRas) {

    public static final SchedulerParams DEFAULTS = new SchedulerParams(Aniello.DEFAULTS,
            new ElasticAllocator.Params(0.9, 0.9, 1_000_000_000L), Otd.DEFAULTS, Optimum.DEFAULTS, Sam.DERIVED,
            StormRas.DEFAULTS);

    public SchedulerParams {
        Objects.requireNonNull(aniello, "aniello");
        Objects.requireNonNull(elastic, "elastic");
        Objects.requireNonNull(otd, "otd");
        Objects.requireNonNull(optimum, "optimum");
        Objects.requireNonNull(sam, "sam");
        Objects.requireNonNull(stormRas, "stormRas");
    }

    /** α, β in [0, 1]; the defaults are those of the Aniello Nimbus plugins (α = 0 even split, β = 0.5). */
    public record Aniello(double alpha, double beta) {
        public static final Aniello DEFAULTS = new Aniello(0.0, 0.5);

        public Aniello {
            if (!(alpha >= 0 && alpha <= 1) || !(beta >= 0 && beta <= 1)) {
                throw new IllegalArgumentException("alpha and beta must be in [0,1], got " + alpha + ", " + beta);
            }
        }
    }

    /** OTD thresholds plus executors (Storm ids such as {@code [3,3]}) it must leave where they are. */
    public record Otd(OtdParams thresholds, Set<String> pinned) {
        public static final Otd DEFAULTS = new Otd(OtdParams.DEFAULTS, Set.of());

        public Otd {
            Objects.requireNonNull(thresholds, "thresholds");
            pinned = Set.copyOf(pinned);
        }
    }

    /**
     * The exact search refuses instances above {@code maxExecutors} executors (per topology) and gives
     * up after {@code maxSearchNodes} branch-and-bound nodes.
     */
    public record Optimum(int maxExecutors, long maxSearchNodes) {
        public static final Optimum DEFAULTS = new Optimum(16, 20_000_000L);

        public Optimum {
            if (maxExecutors < 1 || maxSearchNodes < 1) {
                throw new IllegalArgumentException("optimum limits must be >= 1");
            }
        }
    }

    /** Per topology id, per component: the allocation SAM uses instead of the one derived from loads. */
    public record Sam(Map<String, Map<String, ComponentAllocation>> allocations) {
        public static final Sam DERIVED = new Sam(Map.of());

        public Sam {
            allocations = Map.copyOf(allocations);
        }

        public Map<String, ComponentAllocation> of(String topologyId) {
            return allocations.getOrDefault(topologyId, Map.of());
        }
    }

    /**
     * @param strategy        value of {@code topology.scheduler.strategy}
     * @param workerMaxHeapMb {@code topology.worker.max.heap.size.mb}; 0 means unlimited (the default here,
     *                        so the worker count is not capped by a memory figure the input may not have)
     * @param defaultMemoryMb memory per executor for components without a figure (Storm's default on-heap)
     * @param maxStateSearch  {@code topology.ras.constraint.max.state.search} (Storm's default 10 000 refuses
     *                        topologies with that many executors)
     * @param timeoutSeconds  {@code scheduling.timeout.seconds.per.topology} (Storm's default 60)
     */
    public record StormRas(String strategy, double workerMaxHeapMb, double defaultMemoryMb, int maxStateSearch,
                           int timeoutSeconds) {
        public static final String DEFAULT_STRATEGY =
                "org.apache.storm.scheduler.resource.strategies.scheduling.DefaultResourceAwareStrategy";
        public static final StormRas DEFAULTS = new StormRas(DEFAULT_STRATEGY, 0, 128, 10_000, 60);

        public StormRas {
            Objects.requireNonNull(strategy, "strategy");
            if (!(workerMaxHeapMb >= 0) || !(defaultMemoryMb >= 0)) {
                throw new IllegalArgumentException("storm_ras memory figures must be >= 0");
            }
            if (maxStateSearch < 1 || timeoutSeconds < 1) {
                throw new IllegalArgumentException("storm_ras max_state_search and timeout_seconds must be >= 1");
            }
        }
    }

    public SchedulerParams withAniello(Aniello a) {
        return new SchedulerParams(a, elastic, otd, optimum, sam, stormRas);
    }

    public SchedulerParams withElastic(ElasticAllocator.Params e) {
        return new SchedulerParams(aniello, e, otd, optimum, sam, stormRas);
    }

    public SchedulerParams withOtd(Otd o) {
        return new SchedulerParams(aniello, elastic, o, optimum, sam, stormRas);
    }

    public SchedulerParams withOptimum(Optimum o) {
        return new SchedulerParams(aniello, elastic, otd, o, sam, stormRas);
    }

    public SchedulerParams withSam(Sam s) {
        return new SchedulerParams(aniello, elastic, otd, optimum, s, stormRas);
    }

    public SchedulerParams withStormRas(StormRas r) {
        return new SchedulerParams(aniello, elastic, otd, optimum, sam, r);
    }
}
