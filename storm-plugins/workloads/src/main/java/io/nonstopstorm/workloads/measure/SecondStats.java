package io.nonstopstorm.workloads.measure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one spout task saw in one wall-clock second: tuples emitted (first time), replayed, acked and
 * failed, and the latency of the acked ones measured from each tuple's intended emit time.
 * Gauges (pending, behind, bad input lines) are sampled when the second is closed.
 */
public record SecondStats(long epochSecond, long emitted, long replayed, long acked, long failed,
                          LatencySummary latency, long pending, double behindMs, long badLines,
                          double targetRate) {

    /** One JSON-ready object; the field names are the series file format read by pycontrol. */
    public Map<String, Object> toMap(String component, int task) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ts", epochSecond);
        m.put("component", component);
        m.put("task", task);
        m.put("emitted", emitted);
        m.put("replayed", replayed);
        m.put("acked", acked);
        m.put("failed", failed);
        m.put("lat_ms", latency.toMap());
        m.put("pending", pending);
        m.put("behind_ms", round3(behindMs));
        m.put("bad_lines", badLines);
        m.put("target_rate", Double.isNaN(targetRate) ? null : round3(targetRate));
        return m;
    }

    static double round3(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
