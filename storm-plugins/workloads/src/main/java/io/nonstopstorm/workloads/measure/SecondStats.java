package io.nonstopstorm.workloads.measure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one spout task saw in one wall-clock second: tuples emitted (first time), replayed, acked and
 * failed, and the latency of the acked ones measured from each tuple's intended emit time.
 * Gauges (pending, behind, bad input lines) are sampled when the second is closed. {@code ackGapMs}
 * is the longest stretch without an ack that ends in this second, -1 before the first ack (written
 * as "ack_gap_ms", null then; readers that predate it ignore it).
 */
public record SecondStats(long epochSecond, long emitted, long replayed, long acked, long failed,
                          LatencySummary latency, long pending, double behindMs, long badLines,
                          double targetRate, long ackGapMs) {

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
        m.put("ack_gap_ms", ackGapMs < 0 ? null : ackGapMs);
        return m;
    }

    static double round3(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
