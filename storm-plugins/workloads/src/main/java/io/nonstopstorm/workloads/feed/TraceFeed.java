package io.nonstopstorm.workloads.feed;

import java.util.List;

/**
 * Replays a trace: record i (counting good records only) goes to task i mod tasks and is due at
 * offset_ms / speed. 1 field = [payload, or key when the record has none], 2 fields = [key, payload].
 * At most {@code total} records are replayed in all (0 = the whole trace).
 */
public final class TraceFeed implements Feed {
    private final TraceReader reader;
    private final int taskIndex;
    private final int tasks;
    private final long total;
    private final double speed;
    private final int fields;
    private long recordIndex = -1;
    private TraceRecord next;
    private boolean done;

    public TraceFeed(TraceReader reader, double speed, int taskIndex, int tasks, long total, int fields) {
        if (!(speed > 0)) {
            throw new IllegalArgumentException("workload.replay.speed must be > 0, got " + speed);
        }
        this.reader = reader;
        this.speed = speed;
        this.taskIndex = taskIndex;
        this.tasks = tasks;
        this.total = total;
        this.fields = fields;
        advance();
    }

    private void advance() {
        next = null;
        while (!done) {
            TraceRecord r = reader.next();
            if (r == null) {
                done = true;
                return;
            }
            recordIndex++;
            if (total > 0 && recordIndex >= total) {
                done = true;
                return;
            }
            if (recordIndex % tasks == taskIndex) {
                next = r;
                return;
            }
        }
    }

    @Override
    public double nextTime() {
        return next == null ? Double.POSITIVE_INFINITY : next.offsetMs() / 1000.0 / speed;
    }

    @Override
    public List<Object> take() {
        TraceRecord r = next;
        advance();
        String payload = r.payload() != null ? r.payload() : "";
        if (fields == 1) {
            return List.of(r.payload() != null ? r.payload() : r.key());
        }
        return List.of(r.key(), payload);
    }

    @Override
    public boolean exhausted() {
        return next == null && done;
    }

    @Override
    public long badLines() {
        return reader.badLines();
    }

    public String lastProblem() {
        return reader.lastProblem();
    }

    @Override
    public double targetRate(double t) {
        return Double.NaN;
    }
}
