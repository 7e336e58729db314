package io.nonstopstorm.metrics;

import io.nonstopstorm.metrics.zk.StormZk;
import io.nonstopstorm.wire.ConfValues;
import io.nonstopstorm.wire.ZkPaths;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * The metrics plane's conf keys (read from the worker's topology conf, i.e. the node's storm.yaml
 * merged with the topology's own conf) and where the worker publishes.
 */
public record MetricsSettings(int periodSecs, String zkRoot, String zkConnect, int sessionTimeoutMs,
                              int connectionTimeoutMs, int clockTicksPerSecond, String host) {
    public static final String PERIOD_SECS = "nonstop.metrics.period.secs";
    public static final String ZK_ROOT = "nonstop.metrics.zk.root";
    public static final String SESSION_TIMEOUT_MS = "nonstop.metrics.zk.session.timeout.ms";
    /** USER_HZ of /proc times; 100 on every mainstream Linux build (Java cannot call sysconf). */
    public static final String CLOCK_TICKS = "nonstop.metrics.proc.clock.ticks";

    public static final int DEFAULT_PERIOD_SECS = 5;
    public static final String DEFAULT_ZK_ROOT = ZkPaths.METRICS;
    public static final int DEFAULT_SESSION_TIMEOUT_MS = 10_000;
    public static final int DEFAULT_CLOCK_TICKS = 100;

    public MetricsSettings {
        if (periodSecs < 1) {
            throw new IllegalArgumentException(PERIOD_SECS + " must be >= 1, got " + periodSecs);
        }
        if (!zkRoot.startsWith("/") || zkRoot.endsWith("/")) {
            throw new IllegalArgumentException(ZK_ROOT + " must start and not end with '/', got '" + zkRoot + "'");
        }
    }

    public static MetricsSettings fromConf(Map<String, Object> conf) {
        int sessionMs = ConfValues.integer(conf, SESSION_TIMEOUT_MS, DEFAULT_SESSION_TIMEOUT_MS);
        return new MetricsSettings(
            ConfValues.integer(conf, PERIOD_SECS, DEFAULT_PERIOD_SECS),
            String.valueOf(conf.getOrDefault(ZK_ROOT, DEFAULT_ZK_ROOT)),
            zkConnect(conf),
            sessionMs,
            Math.min(sessionMs, 15_000),
            ConfValues.integer(conf, CLOCK_TICKS, DEFAULT_CLOCK_TICKS),
            host(conf));
    }

    /** The znode of one worker: {@code <root>/<topology-id>/<host>-<port>}. */
    public String workerPath(String topologyId, int port) {
        return ZkPaths.metricsWorker(zkRoot, topologyId, host, port);
    }

    static String zkConnect(Map<String, Object> conf) {
        return StormZk.connectString(conf);
    }

    private static String host(Map<String, Object> conf) {
        Object h = conf.get("storm.local.hostname");
        if (h != null && !h.toString().isBlank()) {
            return h.toString();
        }
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
