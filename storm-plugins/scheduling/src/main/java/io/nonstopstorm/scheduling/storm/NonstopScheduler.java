package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.metricsplane.ZkMetricsReader;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.plan.PlanFollowingScheduler;
import io.nonstopstorm.scheduling.plan.PlanWatch;
import io.nonstopstorm.scheduling.plan.ZkPlanChannel;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ZkPaths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.IScheduler;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's one {@code storm.scheduler}
 * ({@code storm.scheduler: io.nonstopstorm.scheduling.storm.NonstopScheduler}): each topology is placed
 * by the scheduler its own conf names, controller plans are applied, everything else is Storm's default.
 *
 * <p>Per topology and round, in this order of precedence:
 * <ol>
 *   <li><b>A controller plan holds it.</b> A fully placed topology with an undecided plan znode
 *       ({@code /nonstop/plans/<name>}) gets the plan decided (applied, unchanged or rejected, recorded in
 *       {@code /nonstop/decisions/<name>}) whatever its scheduler; once a plan is applied the placement
 *       is the controller's, and the topology's scheduler is no longer asked, except to re-place
 *       executors that lost their slot.</li>
 *   <li><b>Its scheduler</b>, named by {@code nonstop.scheduler} in the topology's conf:
 *       {@code aniello-offline}, {@code aniello-online}, {@code slot-aware} (or {@code sam}),
 *       {@code elastic} (or {@code elastic-allocator}), {@code ras} (or {@code resource-aware}: Storm's
 *       ResourceAwareScheduler on that topology alone), {@code otd} (online task deployment), {@code random}
 *       (the Random baseline, {@link RandomStormScheduler}); trimmed, any
 *       case. It places the topology when executors lack a slot, and (online and OTD only) reschedules it;
 *       a scheduler that cannot place falls back to the DefaultScheduler for that topology. Each round in
 *       which it changes the placement (or OTD raises a warning) writes one record to
 *       {@code /nonstop/decisions/<name>.scheduler} ({@link SchedulerDecisionRecord}).</li>
 *   <li><b>Storm's DefaultScheduler</b> for topologies without the key, or naming no scheduler here
 *       (then with a status saying so and one log line). A topology without the key is treated exactly
 *       as {@link PlanFollowingScheduler} treats it.</li>
 * </ol>
 * A rejected plan leaves the topology with its scheduler. The online, elastic and OTD schedulers read the
 * metrics plane ({@link ZkSchedulingMetrics}), refreshed once per round that has such a topology.
 * Without ZooKeeper there are no plans, records or measurements, and the schedulers still place.
 * {@link #schedule} never throws; rounds that change nothing write nothing. A written plan starts a round at
 * once when Nimbus runs the migration agent ({@link PlanTriggeredRounds}; {@value #ROUND_ON_PLAN_KEY}).
 */
public class NonstopScheduler implements IScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(NonstopScheduler.class);
    /** Nimbus key: whether a written plan starts a round at once (true) or waits for the periodic one. */
    public static final String ROUND_ON_PLAN_KEY = "nonstop.scheduler.round.on.plan";
    private static final long ZK_WARN_EVERY_MS = 30_000;

    private final SchedulingMetrics injectedMetrics;
    private final LongSupplier clock;
    private ZkPlanChannel channel;
    private PlanWatch planWatch;
    private PlanFollowingScheduler plans;
    private List<ConfiguredScheduler> schedulers = List.of();
    private SchedulingMetrics metrics = SchedulingMetrics.none();
    private Map<String, String> hostOfNode = Map.of();
    private final Set<String> reportedUnknown = new HashSet<>();
    private long lastZkWarnMs = Long.MIN_VALUE / 2;

    public NonstopScheduler() {
        this(null, System::currentTimeMillis);
    }

    /** For tests: these measurements instead of the metrics plane's, and this clock. */
    NonstopScheduler(SchedulingMetrics metrics, LongSupplier clock) {
        this.injectedMetrics = metrics;
        this.clock = clock;
        this.plans = new PlanFollowingScheduler(null, clock);
    }

    @Override
    public void prepare(Map<String, Object> conf, StormMetricsRegistry metricsRegistry) {
        Map<String, Object> c = conf == null ? Map.of() : conf;
        try {
            channel = ZkPlanChannel.fromStormConf(c);
        } catch (RuntimeException | LinkageError e) { // e.g. malformed auth keys, or no metrics jar in extlib
            LOG.error("nonstop scheduler cannot reach ZooKeeper: no plans, decision records or measurements", e);
        }
        plans = new PlanFollowingScheduler(channel, clock);
        if (channel != null && ObjectReader.getBoolean(c.get(ROUND_ON_PLAN_KEY), true)) {
            planWatch = PlanWatch.start(channel.client(), PlanTriggeredRounds::planWritten);
        }
        metrics = injectedMetrics != null ? injectedMetrics : metricsPlane(c);
        schedulers = List.of(new AnielloOfflineStormScheduler(), new AnielloOnlineStormScheduler(metrics, clock),
                             new SlotAwareStormScheduler(), new ElasticStormScheduler(metrics, System::nanoTime),
                             new ResourceAwareStormScheduler(), new OtdStormScheduler(metrics, clock),
                             new RandomStormScheduler());
        for (ConfiguredScheduler s : schedulers) {
            s.prepare(c, metricsRegistry);
            s.recordDecisionsWith(this::record);
        }
        LOG.info("nonstop scheduler ready: {} by topology conf {}, controller plans under {}, else DefaultScheduler",
                 names(), ConfiguredScheduler.SCHEDULER_KEY, ZkPaths.PLANS);
    }

    private SchedulingMetrics metricsPlane(Map<String, Object> conf) {
        if (channel == null) {
            return SchedulingMetrics.none();
        }
        OptionalDouble mhz = OptionalDouble.empty();
        try {
            mhz = ZkSchedulingMetrics.fallbackMhz(conf);
        } catch (IllegalArgumentException e) {
            LOG.error("ignoring {}: {}", ZkSchedulingMetrics.FALLBACK_MHZ_KEY, e.getMessage());
        }
        ZkMetricsReader reader = new ZkMetricsReader(channel.client(), ZkMetricsReader.root(conf));
        return new ZkSchedulingMetrics(reader::readAll, reader.root(), clock, mhz);
    }

    @Override
    public Map<String, Map<String, Double>> config() {
        return Map.of();
    }

    @Override
    public void cleanup() {
        schedulers.forEach(ConfiguredScheduler::cleanup);
        if (planWatch != null) {
            planWatch.close();
        }
        if (channel != null) {
            channel.close();
        }
    }

    @Override
    public void schedule(Topologies topologies, Cluster cluster) {
        List<TopologyDetails> all = new ArrayList<>(topologies.getTopologies());
        all.sort(Comparator.comparing(TopologyDetails::getId));
        Map<ConfiguredScheduler, List<TopologyDetails>> bySchedulers = new LinkedHashMap<>();
        List<TopologyDetails> toDefault = new ArrayList<>();
        Set<String> alive = new HashSet<>();
        boolean measure = false;
        try {
            hostOfNode = hosts(cluster);
            for (TopologyDetails td : all) {
                alive.add(td.getId());
                ConfiguredScheduler named = schedulerOf(td, cluster);
                if (plans.step(td, cluster) == PlanFollowingScheduler.Hold.FOLLOWS_PLAN) {
                    continue;
                }
                if (named == null) {
                    toDefault.add(td);
                } else {
                    bySchedulers.computeIfAbsent(named, k -> new ArrayList<>()).add(td);
                    measure |= named.usesMeasurements();
                }
            }
            plans.forgetAllBut(alive);
            reportedUnknown.retainAll(alive);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            LOG.error("nonstop scheduler: sorting topologies failed; the DefaultScheduler places the rest", e);
            bySchedulers.values().forEach(toDefault::addAll);
            bySchedulers.clear();
            Set<String> sorted = new HashSet<>();
            toDefault.forEach(td -> sorted.add(td.getId()));
            all.stream().filter(td -> !sorted.contains(td.getId())).forEach(toDefault::add);
        }
        if (measure) {
            try {
                metrics.refresh(hostOfNode, executorsOf(all));
            } catch (RuntimeException e) {
                LOG.warn("nonstop scheduler: reading the metrics plane failed", e);
            }
        }
        // Schedulers in a fixed order (each places its topologies in id order), then the default.
        for (ConfiguredScheduler s : schedulers) {
            // Also with none of its topologies: it then forgets the state of finished ones.
            List<TopologyDetails> mine = bySchedulers.getOrDefault(s, List.of());
            s.schedule(new Topologies(mine.toArray(new TopologyDetails[0])), cluster);
        }
        try {
            DefaultFallback.schedule(cluster, toDefault);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            LOG.error("DefaultScheduler failed", e);
        }
    }

    /** Each topology's executors, so the metrics plane refuses documents naming others. */
    private static Map<String, Set<ExecutorId>> executorsOf(List<TopologyDetails> topologies) {
        Map<String, Set<ExecutorId>> out = new HashMap<>();
        for (TopologyDetails td : topologies) {
            Set<ExecutorId> ids = new HashSet<>();
            td.getExecutors().forEach(e -> ids.add(StormModelMapper.id(e)));
            out.put(td.getId(), ids);
        }
        return out;
    }

    /** The scheduler the topology's conf names, or null (no key, or a name no scheduler answers to). */
    private ConfiguredScheduler schedulerOf(TopologyDetails td, Cluster cluster) {
        String value = new TopologyConf(td.getConf()).string(ConfiguredScheduler.SCHEDULER_KEY);
        if (value == null) {
            return null;
        }
        for (ConfiguredScheduler s : schedulers) {
            if (s.selects(value)) {
                return s;
            }
        }
        String status = "nonstop: " + ConfiguredScheduler.SCHEDULER_KEY + " '" + value + "' names no scheduler (known: "
                        + names() + "); DefaultScheduler places it";
        if (reportedUnknown.add(td.getId())) {
            LOG.warn("topology {}: {}", td.getId(), status);
        }
        cluster.setStatus(td.getId(), status);
        return null;
    }

    private Set<String> names() {
        Set<String> out = new TreeSet<>();
        for (ConfiguredScheduler s : schedulers) {
            out.add(s.name());
            out.addAll(s.aliases());
        }
        return out;
    }

    private void record(TopologyDetails td, String scheduler, ConfiguredScheduler.Decision d) {
        Map<String, String> hosts = hostOfNode;
        SchedulerDecisionRecord rec = SchedulerDecisionRecord.of(td.getName(), td.getId(), scheduler, d,
                (SlotId s) -> hosts.getOrDefault(s.nodeId(), s.nodeId()) + ":" + s.port(), clock.getAsLong());
        if ("warning".equals(rec.status())) {
            LOG.warn("{} {} {}: {}", scheduler, rec.status(), td.getId(), d.status());
        } else {
            LOG.info("{} {} {}: {} ({} executor(s) moved)", scheduler, rec.status(), td.getId(), d.status(),
                     rec.moves().size());
        }
        if (channel == null) {
            return;
        }
        try {
            channel.writeSchedulerDecision(td.getName(), rec.toJson());
        } catch (Exception e) {
            long now = clock.getAsLong();
            if (now - lastZkWarnMs > ZK_WARN_EVERY_MS) {
                lastZkWarnMs = now;
                LOG.warn("nonstop scheduler: cannot write decision records ({})", e.toString());
            }
        }
    }

    private static Map<String, String> hosts(Cluster cluster) {
        Map<String, String> out = new TreeMap<>();
        for (SupervisorDetails s : cluster.getSupervisors().values()) {
            out.put(s.getId(), s.getHost() == null ? s.getId() : s.getHost());
        }
        return out;
    }
}
