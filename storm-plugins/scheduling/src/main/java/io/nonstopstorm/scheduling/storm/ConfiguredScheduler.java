package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.plan.MoveRules;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.IScheduler;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What every nonstop scheduler shares. A topology opts in with {@code nonstop.scheduler: <name>} in its
 * configuration; all other topologies go to Storm's DefaultScheduler. For an opted-in topology the
 * subclass returns a step (a target placement or "leave it") or a failure; a failure or any exception
 * falls back to the DefaultScheduler for that topology only, with the reason in the topology status and
 * the log. {@link #schedule} never throws. The key's value is matched trimmed and in any case, against
 * {@link #name()} and {@link #aliases()}.
 */
public abstract class ConfiguredScheduler implements IScheduler {

    /** Topology config key naming the scheduler that should place it. */
    public static final String SCHEDULER_KEY = "nonstop.scheduler";
    /**
     * Node CPU capacity: in a supervisor's {@code supervisor.scheduler.meta}, or a default in Nimbus's conf. A
     * number (in the unit of the scheduler's loads), {@value #CAPACITY_UNBOUNDED} or {@value #CAPACITY_MEASURED}
     * (the default: what the metrics plane measured, see {@link #measuredNodeCapacity}).
     */
    public static final String NODE_CAPACITY_KEY = "nonstop.node.capacity";
    public static final String CAPACITY_MEASURED = "measured";
    public static final String CAPACITY_UNBOUNDED = "unbounded";

    private static final Logger LOG = LoggerFactory.getLogger(ConfiguredScheduler.class);

    /** What to do for one topology this round, and what its decision record should add. */
    protected record Step(Optional<Placement> target, String status, Notice notice) {
        public static Step keep(String status) {
            return new Step(Optional.empty(), status, Notice.NONE);
        }

        public static Step apply(Placement target, String status) {
            return new Step(Optional.of(target), status, Notice.NONE);
        }

        public Step with(Notice n) {
            return new Step(target, status, n);
        }
    }

    /**
     * What a decision record carries beyond the placement change: {@code warning} records a round even
     * though it changed nothing (a condition an operator must see, e.g. OTD's "lacking resources");
     * {@code details} go into the record as they are (JSON-friendly values only).
     */
    public record Notice(boolean warning, Map<String, Object> details) {
        public static final Notice NONE = new Notice(false, Map.of());

        public Notice {
            details = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(details));
        }
    }

    private final String name;
    private final Set<String> aliases;
    private final boolean usesMeasurements;
    private Map<String, Object> nimbusConf = Map.of();

    /**
     * @param name              the value of {@link #SCHEDULER_KEY} that selects this scheduler
     * @param aliases           other values that select it
     * @param usesMeasurements  whether {@link #plan} reads the metrics plane (the dispatcher then refreshes it first)
     */
    protected ConfiguredScheduler(String name, Set<String> aliases, boolean usesMeasurements) {
        this.name = name;
        this.aliases = Set.copyOf(aliases);
        this.usesMeasurements = usesMeasurements;
    }

    /** The value of {@link #SCHEDULER_KEY} that selects this scheduler. */
    protected final String name() {
        return name;
    }

    /** Decide for one opted-in topology. Expected problems come back as a failure value. */
    protected abstract Outcome<Step> plan(TopologyDetails td, Cluster cluster);

    @Override
    public void prepare(Map<String, Object> conf, StormMetricsRegistry metricsRegistry) {
        this.nimbusConf = conf == null ? Map.of() : conf;
    }

    @Override
    public Map<String, Map<String, Double>> config() {
        return Map.of();
    }

    /** Other values of {@link #SCHEDULER_KEY} that select this scheduler. */
    protected final Set<String> aliases() {
        return aliases;
    }

    /** Whether a topology's {@link #SCHEDULER_KEY} value (trimmed, any case) selects this scheduler. */
    public final boolean selects(String value) {
        String v = normalise(value);
        return v != null && (v.equals(name()) || aliases().contains(v));
    }

    static String normalise(String value) {
        return value == null ? null : value.trim().toLowerCase(Locale.ROOT);
    }

    /** Told about every topology whose placement this scheduler (or its fallback) changed, or that got a warning, in a round. */
    @FunctionalInterface
    public interface DecisionSink {
        void placementChanged(TopologyDetails td, String scheduler, Decision decision);
    }

    /**
     * What was done to one topology: {@code fallback} when the DefaultScheduler placed it because this
     * scheduler could not, the status text, and the placements before and after.
     */
    public record Decision(boolean fallback, String status, Placement before, Placement after, Notice notice) {
        public Decision(boolean fallback, String status, Placement before, Placement after) {
            this(fallback, status, before, after, Notice.NONE);
        }
    }

    private DecisionSink sink = (td, scheduler, decision) -> { };

    public void recordDecisionsWith(DecisionSink sink) {
        this.sink = sink;
    }

    @Override
    public final void schedule(Topologies topologies, Cluster cluster) {
        List<TopologyDetails> others = new ArrayList<>();
        List<TopologyDetails> all = new ArrayList<>(topologies.getTopologies());
        all.sort(Comparator.comparing(TopologyDetails::getId));
        try {
            // Alive: what Nimbus lists (the cluster's) and what we are given (a caller's subset).
            Set<String> alive = new HashSet<>(topologies.getAllIds());
            alive.addAll(cluster.getTopologies().getAllIds());
            forgetAllBut(alive);
        } catch (RuntimeException e) {
            LOG.warn("{}: dropping the state of finished topologies failed", name(), e);
        }
        for (TopologyDetails td : all) {
            if (!selects(new TopologyConf(td.getConf()).string(SCHEDULER_KEY))) {
                others.add(td);
                continue;
            }
            Placement before = StormModelMapper.placement(cluster, td.getId());
            boolean fallback = false;
            Notice notice = Notice.NONE;
            String status;
            try {
                Outcome<Step> outcome = plan(td, cluster);
                if (outcome instanceof Outcome.Failure<Step> f) {
                    status = fallBack(td, cluster, f.reason());
                    fallback = true;
                } else {
                    Step step = outcome.orElseThrow();
                    status = step.status();
                    notice = step.notice();
                    Optional<String> gated = step.target().flatMap(t -> MoveRules.refusal(td, before.movedComparedTo(t)));
                    if (gated.isPresent()) {
                        status = "placement kept: " + gated.get();
                        LOG.warn("{} kept the placement of {}: {}", name(), td.getId(), gated.get());
                    } else if (step.target().isPresent()) {
                        int changed = PlacementApplier.apply(cluster, td, step.target().get());
                        status += changed == 0 ? " (no change)" : " (" + changed + " slot(s) changed)";
                        LOG.info("{} placed {}: {}", name(), td.getId(), status);
                    }
                    cluster.setStatus(td.getId(), "nonstop " + name() + ": " + status);
                }
            } catch (RuntimeException | LinkageError | AssertionError e) {
                LOG.error("{} failed on topology {}", name(), td.getId(), e);
                status = fallBack(td, cluster, e.toString());
                fallback = true;
            }
            report(td, cluster, new Decision(fallback, status, before, Placement.empty(), notice));
        }
        try {
            DefaultFallback.schedule(cluster, others);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            LOG.error("DefaultScheduler failed for topologies not handled by {}", name(), e);
        }
    }

    /** Tells the sink when the placement changed or a warning was raised; a sink's trouble never reaches Nimbus. */
    private void report(TopologyDetails td, Cluster cluster, Decision d) {
        try {
            Placement after = StormModelMapper.placement(cluster, td.getId());
            if (!after.equals(d.before()) || d.notice().warning()) {
                sink.placementChanged(td, name(), new Decision(d.fallback(), d.status(), d.before(), after, d.notice()));
            }
        } catch (RuntimeException | LinkageError | AssertionError e) {
            LOG.warn("{}: recording the decision on {} failed", name(), td.getId(), e);
        }
    }

    private String fallBack(TopologyDetails td, Cluster cluster, String reason) {
        LOG.warn("{} cannot place {}: {}; falling back to DefaultScheduler", name(), td.getId(), reason);
        String status = "failed: " + reason + "; using DefaultScheduler";
        try {
            cluster.setStatus(td.getId(), "nonstop " + name() + " " + status);
            DefaultFallback.schedule(cluster, List.of(td));
        } catch (RuntimeException | LinkageError | AssertionError e) {
            LOG.error("DefaultScheduler fallback failed for {}", td.getId(), e);
        }
        return status;
    }

    /** Drops what the scheduler keeps about topologies not in {@code aliveTopologyIds} (called every round). */
    protected void forgetAllBut(Set<String> aliveTopologyIds) {
    }

    /** Nimbus's configuration (storm.yaml), as given to {@link #prepare}. */
    protected Map<String, Object> nimbusConf() {
        return nimbusConf;
    }

    /** Whether {@link #plan} reads the metrics plane (the dispatcher then refreshes it first). */
    protected final boolean usesMeasurements() {
        return usesMeasurements;
    }

    /**
     * CPU capacity of a node, from {@link #NODE_CAPACITY_KEY} (its scheduler meta, else Nimbus's conf): a
     * number; {@value #CAPACITY_UNBOUNDED}; or, when unset or {@value #CAPACITY_MEASURED}, the measured
     * capacity, else unbounded.
     *
     * @throws IllegalArgumentException for any other value
     */
    protected double nodeCapacity(SupervisorDetails sup) {
        Map<String, Object> source = nodeConf(sup, NODE_CAPACITY_KEY);
        Object v = source.get(NODE_CAPACITY_KEY);
        String word = v instanceof String s ? normalise(s) : null;
        if (v == null || CAPACITY_MEASURED.equals(word)) {
            return measuredNodeCapacity(sup == null ? null : sup.getId()).orElse(Double.POSITIVE_INFINITY);
        }
        if (CAPACITY_UNBOUNDED.equals(word)) {
            return Double.POSITIVE_INFINITY;
        }
        try {
            return new TopologyConf(source).nonNegative(NODE_CAPACITY_KEY, Double.POSITIVE_INFINITY);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(NODE_CAPACITY_KEY + " must be a number >= 0, '" + CAPACITY_MEASURED
                    + "' or '" + CAPACITY_UNBOUNDED + "', got " + v);
        }
    }

    /** The node's capacity as measured, in the scheduler's load unit; none by default. */
    protected OptionalDouble measuredNodeCapacity(String nodeId) {
        return OptionalDouble.empty();
    }

    /** A non-negative per-node number: the supervisor's {@code supervisor.scheduler.meta}, else Nimbus's conf. */
    protected double nodeSetting(SupervisorDetails sup, String key, double fallback) {
        return new TopologyConf(nodeConf(sup, key)).nonNegative(key, fallback);
    }

    /** Where a per-node key is read: the supervisor's scheduler meta if it has the key, else Nimbus's conf. */
    private Map<String, Object> nodeConf(SupervisorDetails sup, String key) {
        if (sup != null && sup.getSchedulerMeta() instanceof Map<?, ?> meta && meta.get(key) != null) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) meta;
            return m;
        }
        return nimbusConf;
    }
}
