package io.nonstopstorm.migration.config;

import io.nonstopstorm.wire.ConfValues;
import java.nio.file.Path;
import java.util.Map;

/**
 * The nonstop-migration keys of storm.yaml, parsed and checked once. Supervisor and workers read the
 * same node storm.yaml, so both sides agree on the plan directory and the switches.
 *
 * @param enabled       false = stock Storm behaviour (workers restart when their executors change)
 * @param workerSyncMs  T_W: how often a worker re-reads the node's plan store even without a push
 * @param lazyKillMs    D_K: how long a removed executor keeps draining its queue before it is shut down
 * @param push          true = workers also watch the plan file and react at once
 * @param connectWaitMs longest wait for connections to an executor's new home before local traffic
 *                      is switched to it (make-before-break)
 * @param planDir       directory of the node's plan store
 * @param parkedMaxBytes   estimated heap a worker may hold in tuples parked for executors it has not
 *                         started yet (beyond it they are dropped for the acker to replay)
 * @param eventsMaxBytes   size at which a worker's migration event log rotates (one old file kept)
 */
public record MigrationSettings(boolean enabled, long workerSyncMs, long lazyKillMs, boolean push,
                                long connectWaitMs, Path planDir, long parkedMaxBytes, long eventsMaxBytes) {

    public static final String ENABLED = "nonstop.migration.enabled";
    public static final String WORKER_SYNC_MS = "nonstop.migration.worker.sync.ms";
    public static final String LAZY_KILL_MS = "nonstop.migration.lazy.kill.ms";
    public static final String PUSH = "nonstop.migration.push";
    public static final String CONNECT_WAIT_MS = "nonstop.migration.connect.wait.ms";
    public static final String PLAN_DIR = "nonstop.migration.plan.dir";
    public static final String PARKED_MAX_BYTES = "nonstop.migration.parked.max.bytes";
    public static final String EVENTS_MAX_BYTES = "nonstop.migration.events.max.bytes";

    public static final long DEFAULT_WORKER_SYNC_MS = 1000;
    public static final long DEFAULT_LAZY_KILL_MS = 2000;
    public static final long DEFAULT_CONNECT_WAIT_MS = 2000;
    public static final long DEFAULT_PARKED_MAX_BYTES = 32L << 20;
    public static final long DEFAULT_EVENTS_MAX_BYTES = 10L << 20;
    /** Sub-directory of storm.local.dir holding the plan store unless {@link #PLAN_DIR} says otherwise. */
    public static final String DEFAULT_PLAN_SUBDIR = "nonstop";

    public MigrationSettings {
        if (workerSyncMs < 10) {
            throw new IllegalArgumentException(WORKER_SYNC_MS + " must be >= 10 ms, got " + workerSyncMs);
        }
        if (lazyKillMs < 0) {
            throw new IllegalArgumentException(LAZY_KILL_MS + " must be >= 0 ms, got " + lazyKillMs);
        }
        if (connectWaitMs < 0) {
            throw new IllegalArgumentException(CONNECT_WAIT_MS + " must be >= 0 ms, got " + connectWaitMs);
        }
        if (parkedMaxBytes < 0) {
            throw new IllegalArgumentException(PARKED_MAX_BYTES + " must be >= 0 bytes, got " + parkedMaxBytes);
        }
        if (eventsMaxBytes < 4096) {
            throw new IllegalArgumentException(EVENTS_MAX_BYTES + " must be >= 4096 bytes, got " + eventsMaxBytes);
        }
    }

    /**
     * Reads the keys from a Storm conf map.
     *
     * @param conf          the daemon conf (defaults + storm.yaml)
     * @param stormLocalDir the node's absolute storm.local.dir (the default home of the plan store)
     * @throws IllegalArgumentException naming the offending key when a value is malformed
     */
    public static MigrationSettings fromConf(Map<String, Object> conf, Path stormLocalDir) {
        Object dir = conf.get(PLAN_DIR);
        Path planDir = dir == null ? stormLocalDir.resolve(DEFAULT_PLAN_SUBDIR) : Path.of(dir.toString());
        return new MigrationSettings(
            ConfValues.flag(conf, ENABLED, false),
            ConfValues.wholeNumber(conf, WORKER_SYNC_MS, DEFAULT_WORKER_SYNC_MS),
            ConfValues.wholeNumber(conf, LAZY_KILL_MS, DEFAULT_LAZY_KILL_MS),
            ConfValues.flag(conf, PUSH, true),
            ConfValues.wholeNumber(conf, CONNECT_WAIT_MS, DEFAULT_CONNECT_WAIT_MS),
            planDir,
            ConfValues.wholeNumber(conf, PARKED_MAX_BYTES, DEFAULT_PARKED_MAX_BYTES),
            ConfValues.wholeNumber(conf, EVENTS_MAX_BYTES, DEFAULT_EVENTS_MAX_BYTES));
    }

    /** The plan file inside {@link #planDir()}. */
    public Path planFile() {
        return planDir.resolve("plan.json");
    }
}
