package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.otd.OtdParams;
import java.util.HashMap;
import java.util.Map;

/**
 * The OTD adapter's settings: Nimbus's storm.yaml gives the cluster's defaults, a topology's own conf
 * overrides them key by key. A bad value raises {@link IllegalArgumentException} naming the key.
 *
 * @param cycleMillis     at most one OTD round (and so one migration) per this many ms
 * @param params          the core's thresholds
 * @param countBackground whether CPU used on a node by other processes shrinks what its workers may use
 */
public record OtdSettings(long cycleMillis, OtdParams params, boolean countBackground) {

    public static final String CYCLE_KEY = "nonstop.otd.cycle.secs";
    public static final String HIGH_CPU_KEY = "nonstop.otd.high.cpu";
    public static final String LOW_CPU_KEY = "nonstop.otd.low.cpu";
    public static final String HIGH_QUEUE_KEY = "nonstop.otd.high.queue";
    public static final String LOW_QUEUE_KEY = "nonstop.otd.low.queue";
    public static final String THRESHOLD_ASC_KEY = "nonstop.otd.threshold.asc";
    public static final String MAX_EXECUTORS_KEY = "nonstop.otd.max.executors.per.worker";
    public static final String TAKE_LAST_KEY = "nonstop.otd.may.take.last.executor";
    public static final String WITHIN_NODE_KEY = "nonstop.otd.relieve.within.node";
    public static final String NODE_BACKGROUND_KEY = "nonstop.otd.node.cpu.background";
    public static final double DEFAULT_CYCLE_SECS = 5;

    public OtdSettings {
        if (cycleMillis <= 0) {
            throw new IllegalArgumentException(CYCLE_KEY + " must be at least 1 ms, got " + cycleMillis / 1000.0 + " s");
        }
    }

    public static OtdSettings of(Map<String, Object> nimbusConf, Map<String, Object> topologyConf) {
        Map<String, Object> merged = new HashMap<>(nimbusConf == null ? Map.of() : nimbusConf);
        if (topologyConf != null) {
            topologyConf.forEach((k, v) -> {
                if (v != null) {
                    merged.put(k, v);
                }
            });
        }
        TopologyConf c = new TopologyConf(merged);
        OtdParams d = OtdParams.DEFAULTS;
        double cycle = c.nonNegative(CYCLE_KEY, DEFAULT_CYCLE_SECS);
        OtdParams params = new OtdParams(c.unitInterval(HIGH_CPU_KEY, d.highCpu()), c.unitInterval(LOW_CPU_KEY, d.lowCpu()),
                whole(c, HIGH_QUEUE_KEY, d.highQueue()), whole(c, LOW_QUEUE_KEY, d.lowQueue()),
                c.nonNegative(THRESHOLD_ASC_KEY, d.thresholdAsc()), (int) whole(c, MAX_EXECUTORS_KEY, d.maxExecutorsPerWorker()),
                c.flag(TAKE_LAST_KEY, d.mayTakeLastExecutor()), c.flag(WITHIN_NODE_KEY, d.relieveWithinNode()));
        return new OtdSettings(Math.round(cycle * 1000), params, c.flag(NODE_BACKGROUND_KEY, true));
    }

    private static long whole(TopologyConf c, String key, double fallback) {
        double v = c.nonNegative(key, fallback);
        if (v != Math.rint(v) || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " must be a whole number, got " + v);
        }
        return (long) v;
    }
}
