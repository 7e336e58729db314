package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.signal.DelegationPolicy;
import io.nonstopstorm.grouping.signal.LoadReportDelegation;
import io.nonstopstorm.grouping.signal.LoadSignals;
import io.nonstopstorm.grouping.signal.LoadSignalsProvider;
import io.nonstopstorm.grouping.signal.NoLoadSignals;
import io.nonstopstorm.grouping.signal.SignalEdge;
import io.nonstopstorm.grouping.signal.SignalLog;
import io.nonstopstorm.metrics.MetricsSettings;
import io.nonstopstorm.metrics.zk.ZkAuth;
import io.nonstopstorm.wire.ConfValues;
import io.nonstopstorm.wire.ZkPaths;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.retry.RetryNTimes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * CG's signal path across worker processes, over the metrics plane (storm-plugins/metrics): every worker
 * already publishes, per window, each executor's {@code busy} (fraction of the window spent in execute) to
 * ZooKeeper. Each worker JVM that runs sources of a CG edge reads the topology's documents every
 * {@value #POLL_MS} ms (default {@value #DEFAULT_POLL_MS}) on one daemon thread, turns the target tasks'
 * windows into load signals with the edge's delegation policy ({@link LoadReportDelegation}: one decision
 * per worker per time slot, a pure function of the published window) and appends them to a {@link SignalLog}
 * that every source of the edge in this JVM reads from the beginning. Sources that read the same documents
 * therefore apply the same signals in the same order; see the module README for the consistency argument.
 *
 * <p>Without ZooKeeper settings in the conf, or without the metrics jar, it falls back to no signals
 * (CG then keeps its even VW table) and says so in the worker log.
 */
public final class MetricsPlaneLoadSignals implements LoadSignalsProvider {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsPlaneLoadSignals.class);

    /** Topology conf key: how often a worker reads the load reports, ms. */
    public static final String POLL_MS = "nonstop.grouping.signals.poll.ms";
    public static final long DEFAULT_POLL_MS = 1000;

    private static final Map<String, LoadSignals> EDGES = new ConcurrentHashMap<>();
    private static final Map<String, CuratorFramework> CLIENTS = new ConcurrentHashMap<>();
    private static ScheduledExecutorService poller;

    public MetricsPlaneLoadSignals() {
    }

    @Override
    public LoadSignals open(String channel, DelegationPolicy policy) {
        LOG.warn("CG edge {}: the metrics-plane signal path needs the edge's topology and tasks; no signals", channel);
        return NoLoadSignals.INSTANCE;
    }

    @Override
    public LoadSignals open(SignalEdge edge) {
        return EDGES.computeIfAbsent(edge.topologyId() + "/" + edge.channel(), k -> start(edge));
    }

    private static LoadSignals start(SignalEdge edge) {
        MetricsSettings settings;
        long pollMs;
        ZkAuth auth;
        try {
            settings = MetricsSettings.fromConf(edge.conf());
            pollMs = pollMillis(edge.conf());
            auth = ZkAuth.fromConf(edge.conf()).orElse(null);
        } catch (IllegalArgumentException | LinkageError e) {
            LOG.warn("CG edge {}: no load reports to read ({}); routing without signals", edge.channel(), e.toString());
            return NoLoadSignals.INSTANCE;
        }
        // A slot is complete once every worker reported past its start; a silent worker is waited for
        // two reporting periods plus a poll at most.
        long graceMs = 2L * settings.periodSecs() * 1000 + pollMs;
        SignalLog log = new SignalLog();
        EdgeSignalPump pump = new EdgeSignalPump(edge.channel(),
            new ZkLoadReportSource(client(settings, auth), ZkPaths.metricsTopology(settings.zkRoot(), edge.topologyId())),
            edge.targetComponent(), new LoadReportDelegation(edge.policy(), edge.targetTasks(), graceMs), log,
            System::currentTimeMillis);
        poller().scheduleWithFixedDelay(() -> {
            try {
                pump.pump();
            } catch (RuntimeException e) {
                LOG.warn("CG edge {}: load report poll failed", edge.channel(), e);
            }
        }, 0, pollMs, TimeUnit.MILLISECONDS);
        LOG.info("CG edge {}: reading load reports of {} from {}/{} every {} ms (slot {} ms, idle < {}, busy > {})",
            edge.channel(), edge.targetComponent(), settings.zkRoot(), edge.topologyId(), pollMs,
            edge.policy().timeSlot(), edge.policy().idleBelow(), edge.policy().busyAbove());
        return log;
    }

    static long pollMillis(Map<String, Object> conf) {
        long ms = ConfValues.wholeNumber(conf, POLL_MS, DEFAULT_POLL_MS);
        if (ms <= 0) {
            throw new IllegalArgumentException(POLL_MS + " must be positive, got " + ms);
        }
        return ms;
    }

    /** One client per ZooKeeper, authenticated with the cluster's credentials when the conf has them. */
    private static CuratorFramework client(MetricsSettings settings, ZkAuth auth) {
        return CLIENTS.computeIfAbsent(settings.zkConnect(), connect -> {
            CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connect)
                .sessionTimeoutMs(settings.sessionTimeoutMs())
                .connectionTimeoutMs(settings.connectionTimeoutMs())
                .retryPolicy(new RetryNTimes(1, 200)); // the next poll is the real retry
            CuratorFramework c = (auth == null ? builder : auth.apply(builder, settings.zkRoot())).build();
            c.start();
            return c;
        });
    }

    private static synchronized ScheduledExecutorService poller() {
        if (poller == null) {
            poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "nonstop-cg-signals");
                t.setDaemon(true);
                return t;
            });
        }
        return poller;
    }

    /** Stops reading and forgets every edge (tests; a worker JVM simply exits). */
    public static synchronized void closeAll() {
        if (poller != null) {
            poller.shutdownNow();
            poller = null;
        }
        EDGES.clear();
        CLIENTS.values().forEach(CuratorFramework::close);
        CLIENTS.clear();
    }
}
