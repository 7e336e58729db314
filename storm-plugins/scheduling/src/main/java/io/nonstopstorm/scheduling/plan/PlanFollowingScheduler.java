package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.migration.state.HandoffLimits;
import io.nonstopstorm.scheduling.metricsplane.RawDocument;
import io.nonstopstorm.scheduling.metricsplane.ZkMetricsReader;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.storm.DefaultFallback;
import io.nonstopstorm.scheduling.storm.PlacementApplier;
import io.nonstopstorm.scheduling.storm.StormModelMapper;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ZkPaths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.IScheduler;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code storm.scheduler: io.nonstopstorm.scheduling.plan.PlanFollowingScheduler}: moves executors as
 * plans in ZooKeeper say ({@code /nonstop/plans/<topology-name>}, see {@link MigrationPlanParser}),
 * touching only the slots that change, and leaves everything else to Storm's DefaultScheduler. Each plan
 * version is decided once; the decision (applied / unchanged / rejected with the reason) goes to
 * {@code /nonstop/decisions/<topology-name>}, the topology's status and the log. {@link #schedule} never
 * throws: on any trouble Storm's default behaviour carries on.
 *
 * <p>Topologies with an applied plan are handed to the DefaultScheduler only when some of their
 * executors lost their slot (say, a node died): the default would otherwise "even out" the planned
 * placement and restart workers.
 */
public class PlanFollowingScheduler implements IScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(PlanFollowingScheduler.class);
    private static final long ZK_WARN_EVERY_MS = 30_000;
    /**
     * How long a plan waits for a round in which Nimbus's view has every slot its topology runs on. Storm
     * leaves a port out of a round (its supervisor missed a heartbeat, or it counts the port's executors as
     * not alive) and back in at a later one; deciding in such a round would reject a sound plan.
     */
    static final long HIDDEN_SLOT_WAIT_MS = 10_000;

    private final LongSupplier clock;
    private ZkPlanChannel channel;
    /** topology id → plan znode version already decided */
    private final Map<String, Integer> decided = new HashMap<>();
    /** topology ids whose placement follows an applied plan */
    private final Set<String> planned = new HashSet<>();
    /** topology id → its plan version waiting for a round whose view has every slot the topology runs on */
    private final Map<String, Waiting> waiting = new HashMap<>();
    private long lastZkWarnMs = 0;

    public PlanFollowingScheduler() {
        this(System::currentTimeMillis);
    }

    PlanFollowingScheduler(LongSupplier clock) {
        this.clock = clock;
    }

    /** Uses this channel instead of connecting in {@link #prepare} (a composing scheduler's, or a test's). */
    public PlanFollowingScheduler(ZkPlanChannel channel, LongSupplier clock) {
        this.clock = clock;
        this.channel = channel;
    }

    @Override
    public void prepare(Map<String, Object> conf, StormMetricsRegistry metricsRegistry) {
        if (channel != null) {
            return;
        }
        try {
            channel = ZkPlanChannel.fromStormConf(conf);
            LOG.info("plan-following scheduler ready: plans under {}, decisions under {}", ZkPaths.PLANS,
                     ZkPaths.DECISIONS);
        } catch (RuntimeException e) {
            LOG.error("plan-following scheduler cannot reach ZooKeeper; it will behave like the DefaultScheduler", e);
        }
    }

    @Override
    public Map<String, Map<String, Double>> config() {
        return Map.of();
    }

    @Override
    public void cleanup() {
        if (channel != null) {
            channel.close();
        }
    }

    @Override
    public void schedule(Topologies topologies, Cluster cluster) {
        List<TopologyDetails> all = new ArrayList<>(topologies.getTopologies());
        all.sort(Comparator.comparing(TopologyDetails::getId));
        List<TopologyDetails> toDefault = new ArrayList<>();
        Set<String> alive = new HashSet<>();
        for (TopologyDetails td : all) {
            alive.add(td.getId());
            if (step(td, cluster) != Hold.FOLLOWS_PLAN) {
                toDefault.add(td);
            }
        }
        forgetAllBut(alive);
        try {
            DefaultFallback.schedule(cluster, toDefault);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            LOG.error("DefaultScheduler failed", e);
        }
    }

    /** Who places a topology after {@link #step}. */
    public enum Hold {
        /** Some executors have no slot: someone else places it first; a plan waits for the next round. */
        NOT_PLACED,
        /** Its placement follows an applied (or already matching) plan: leave it alone. */
        FOLLOWS_PLAN,
        /** No plan concerns it (none, or rejected): its usual scheduler decides. */
        FREE
    }

    /**
     * One topology's plan work this round: decides its plan znode if there is an undecided version, then
     * says whether the plan holds the topology. Never throws.
     */
    public Hold step(TopologyDetails td, Cluster cluster) {
        try {
            boolean lostExecutors = !cluster.getUnassignedExecutors(td).isEmpty();
            if (lostExecutors || cluster.getAssignmentById(td.getId()) == null) {
                return Hold.NOT_PLACED;
            }
            followPlan(td, cluster);
            return planned.contains(td.getId()) ? Hold.FOLLOWS_PLAN : Hold.FREE;
        } catch (Exception | LinkageError | AssertionError e) {
            LOG.error("plan-following scheduler failed on {}; leaving it to the DefaultScheduler", td.getId(), e);
            safeStatus(cluster, td, "nonstop plan: internal error " + e + "; using DefaultScheduler");
            return Hold.FREE;
        }
    }

    /** Drops what is remembered about topologies that are gone. */
    public void forgetAllBut(Set<String> aliveTopologyIds) {
        decided.keySet().retainAll(aliveTopologyIds);
        planned.retainAll(aliveTopologyIds);
        waiting.keySet().retainAll(aliveTopologyIds);
    }

    private void followPlan(TopologyDetails td, Cluster cluster) throws Exception {
        if (channel == null) {
            return;
        }
        Integer version;
        try {
            version = channel.planVersion(td.getName());
        } catch (Exception e) {
            warnZk(e);
            return;
        }
        if (version == null || version.equals(decided.get(td.getId()))) {
            return;
        }
        if (!decided.containsKey(td.getId())) {
            // First look since Nimbus (re)started: a stored decision about this very plan version stands.
            Optional<Map.Entry<String, Integer>> stored = channel.decision(td.getName()).flatMap(DecisionRecord::decidedVersion);
            if (stored.isPresent() && stored.get().getKey().equals(td.getId()) && stored.get().getValue().equals(version)) {
                decided.put(td.getId(), version);
                return;
            }
        }
        Optional<ZkPlanChannel.VersionedPlan> read = channel.plan(td.getName());
        if (read.isEmpty()) {
            return;
        }
        ZkPlanChannel.VersionedPlan vp = read.get();
        Outcome<MigrationPlan> parsed = MigrationPlanParser.parse(vp.json());
        Optional<String> requestId = parsed.isSuccess() ? parsed.orElseThrow().requestId() : Optional.empty();
        Map<String, String> hosts = hostsById(cluster);
        Placement current = StormModelMapper.placement(cluster, td.getId());
        PlanDecision decision;
        if (vp.modifiedAtMs() < td.getLaunchTime() * 1000L) {
            decision = PlanDecision.rejected("plan was written before this topology was launched (stale plan of an "
                                             + "earlier topology with the same name)");
        } else if (!parsed.isSuccess()) {
            decision = PlanDecision.rejected(parsed.reasonOrNull());
        } else {
            TopologyModel topology = StormModelMapper.topology(td);
            // CPU capacity is not this scheduler's concern: a plan is an explicit instruction.
            ClusterModel model = StormModelMapper.cluster(cluster, sup -> Double.POSITIVE_INFINITY, id -> 0.0);
            List<SlotId> hidden = current.usedSlots().stream().filter(slot -> !model.hasSlot(slot)).toList();
            if (!hidden.isEmpty() && waitsForHiddenSlots(td, vp.version(), hidden, hosts)) {
                return;
            }
            decision = PlanDecider.decide(topology, model, current, parsed.orElseThrow(), hosts);
        }
        waiting.remove(td.getId());
        if (decision.status() == PlanDecision.Status.APPLIED) {
            Optional<String> refused = AgentGate.refusal(decision.moves(), s -> hosts.getOrDefault(s.nodeId(), s.nodeId()),
                                                         this::agentRecord);
            if (refused.isEmpty()) {
                refused = MoveRules.refusal(td, decision.moves().stream().map(PlanDecision.Move::executor).toList());
            }
            if (refused.isEmpty()) {
                refused = stateSizeRefusal(td, decision.moves().stream().map(PlanDecision.Move::executor).toList());
            }
            if (refused.isPresent()) {
                decision = PlanDecision.rejected(refused.get());
            }
        }
        Function<SlotId, String> name = s -> hosts.getOrDefault(s.nodeId(), s.nodeId()) + ":" + s.port();
        String summary = summary(decision, name);
        if (decision.status() == PlanDecision.Status.APPLIED) {
            int slots = PlacementApplier.apply(cluster, td, decision.target().orElseThrow());
            planned.add(td.getId());
            summary += " (" + slots + " slot(s) changed)";
            LOG.info("plan v{} for {} applied: {}", vp.version(), td.getName(), summary);
        } else if (decision.status() == PlanDecision.Status.UNCHANGED) {
            planned.add(td.getId());
            LOG.info("plan v{} for {}: {}", vp.version(), td.getName(), summary);
        } else {
            LOG.warn("plan v{} for {} rejected: {}", vp.version(), td.getName(), decision.reason());
        }
        decided.put(td.getId(), vp.version());
        safeStatus(cluster, td, "nonstop plan v" + vp.version() + " " + decision.status().name().toLowerCase() + ": " + summary);
        DecisionRecord rec = DecisionRecord.of(td.getName(), td.getId(), vp.version(), requestId, decision, name,
                                               clock.getAsLong());
        try {
            channel.writeDecision(td.getName(), rec.toJson());
        } catch (Exception e) {
            warnZk(e);
        }
    }

    /**
     * {@link StateSizeRule} over the sizes the topology's workers last published; empty when handoff is off for
     * the topology (nothing is handed over to be too large) or the documents cannot be read (the source's own
     * check at the switch still applies).
     */
    private Optional<String> stateSizeRefusal(TopologyDetails td, List<ExecutorId> moved) {
        Map<String, Object> conf = td.getConf() == null ? Map.of() : td.getConf();
        long maxBytes;
        try {
            if (!HandoffLimits.enabled(conf)) {
                return Optional.empty();
            }
            maxBytes = HandoffLimits.fromConf(conf).maxBytes();
        } catch (IllegalArgumentException | ArithmeticException e) {
            return Optional.empty();   // the workers turn handoff off for such a conf
        }
        List<String> docs;
        try {
            docs = new ZkMetricsReader(channel.client(), ZkMetricsReader.root(conf)).readTopology(td.getId()).stream()
                .map(RawDocument::json).toList();
        } catch (Exception e) {
            warnZk(e);
            return Optional.empty();
        }
        Map<ExecutorId, String> components = new HashMap<>();
        td.getExecutorToComponent().forEach((e, c) -> components.put(new ExecutorId(e.getStartTask(), e.getEndTask()), c));
        return StateSizeRule.refusal(moved, components::get, StateSizeRule.measured(docs), maxBytes);
    }

    private record Waiting(int version, long sinceMs) {
    }

    /** True while the plan should wait for a round whose view shows the slots the topology runs on. */
    private boolean waitsForHiddenSlots(TopologyDetails td, int version, List<SlotId> hidden, Map<String, String> hosts) {
        long now = clock.getAsLong();
        Waiting w = waiting.get(td.getId());
        if (w == null || w.version() != version) {
            w = new Waiting(version, now);
            waiting.put(td.getId(), w);
            LOG.info("plan v{} for {} waits: this round's view lacks slot(s) {} the topology runs on (Storm left "
                     + "them out of this round); it is decided at a later round, at most {} ms from now", version,
                     td.getName(), hidden.stream().map(sl -> hosts.getOrDefault(sl.nodeId(), sl.nodeId()) + ":"
                                                             + sl.port()).toList(), HIDDEN_SLOT_WAIT_MS);
        }
        return now - w.sinceMs() < HIDDEN_SLOT_WAIT_MS;
    }

    private static String summary(PlanDecision d, Function<SlotId, String> name) {
        if (d.status() != PlanDecision.Status.APPLIED) {
            return d.reason();
        }
        List<String> parts = new ArrayList<>();
        for (PlanDecision.Move m : d.moves()) {
            parts.add(m.executor() + " " + (m.from() == null ? "-" : name.apply(m.from())) + " -> " + name.apply(m.to()));
        }
        return String.join(", ", parts);
    }

    private static Map<String, String> hostsById(Cluster cluster) {
        Map<String, String> out = new HashMap<>();
        for (SupervisorDetails s : cluster.getSupervisors().values()) {
            out.put(s.getId(), s.getHost());
        }
        return out;
    }

    private Optional<String> agentRecord(String host) {
        try {
            return channel.agentRecord(host);
        } catch (Exception e) {
            warnZk(e);
            return Optional.empty();
        }
    }

    private void warnZk(Exception e) {
        long now = clock.getAsLong();
        if (now - lastZkWarnMs > ZK_WARN_EVERY_MS) {
            lastZkWarnMs = now;
            LOG.warn("plan-following scheduler: ZooKeeper trouble ({}); plans wait, DefaultScheduler carries on", e.toString());
        }
    }

    private static void safeStatus(Cluster cluster, TopologyDetails td, String msg) {
        try {
            cluster.setStatus(td.getId(), msg);
        } catch (RuntimeException e) {
            LOG.debug("could not set status of {}", td.getId(), e);
        }
    }
}
