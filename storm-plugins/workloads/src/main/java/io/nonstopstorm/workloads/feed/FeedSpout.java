package io.nonstopstorm.workloads.feed;

import io.nonstopstorm.workloads.ConfValidating;
import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.measure.MeasureDir;
import io.nonstopstorm.workloads.measure.SecondStats;
import io.nonstopstorm.workloads.measure.SeriesFile;
import io.nonstopstorm.workloads.measure.SeriesRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workloads' source and measuring point. Emits reliable tuples from a {@link Feed} (lines of a
 * file at a target rate, synthetic items at a target rate, or a replayed trace), replays failed
 * ones, and records per second: emitted, replayed, acked, failed, and the latency of every acked
 * tuple measured from its <em>intended</em> emit time (a stalled system cannot hide its delay), or,
 * with workload.latency.from=emit, from when it was emitted: the processing delay of a saturated
 * topology (a rate above what it can take, bounded by max.spout.pending), whose intended times only fall behind.
 * The series goes to {@code series-<component>-<task>.jsonl} in the {@link MeasureDir}.
 *
 * <p>Conf: workload.feed (lines|generated|trace; default from the constructor), workload.rate
 * (topology-wide tuples/s, split evenly over the spout's tasks), workload.rate.schedule (a file of
 * "at_seconds rate" steps, re-read when it changes), workload.total (items in all; 0 = endless),
 * workload.input (lines file), workload.trace and workload.replay.speed, workload.keys and
 * workload.tuple.bytes (generated), workload.emit.batch (max emits per nextTuple call),
 * workload.latency.from (intended|emit, default intended).
 */
public class FeedSpout extends BaseRichSpout implements ConfValidating {
    private static final Logger LOG = LoggerFactory.getLogger(FeedSpout.class);

    private final String defaultKind;
    private final List<String> fields;

    private transient SpoutOutputCollector collector;
    private transient Feed feed;
    private transient ScheduleFile scheduleFile;
    private transient SeriesRecorder recorder;
    private transient SeriesFile series;
    private transient ArrayDeque<Pending> replay;
    private transient long startNanos;
    private transient long inFlight;
    private transient long lastSecond;
    private transient int batch;
    private transient long reportedBadLines;
    private transient boolean announcedEnd;
    private transient boolean fromEmit;

    /** Message id of an emitted tuple: its values and when its latency starts (System.nanoTime base). */
    static final class Pending {
        final List<Object> values;
        final long sinceNanos;

        Pending(List<Object> values, long sinceNanos) {
            this.values = values;
            this.sinceNanos = sinceNanos;
        }
    }

    /**
     * @param kind default feed kind (lines, generated or trace), overridable by workload.feed
     * @param fields comma-separated output fields: one field, or two (key and payload)
     */
    public FeedSpout(String kind, String fields) {
        this.defaultKind = kind;
        this.fields = Arrays.stream(fields.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (this.fields.isEmpty() || this.fields.size() > 2) {
            throw new IllegalArgumentException("FeedSpout emits one or two fields, got '" + fields + "'");
        }
        kind(kind);
    }

    static String kind(String kind) {
        if (!List.of("lines", "generated", "trace").contains(kind)) {
            throw new IllegalArgumentException("workload.feed must be lines, generated or trace, got '" + kind + "'");
        }
        return kind;
    }

    /** Checks the conf on the submitting side, so a bad value fails the submission, not the worker. */
    @Override
    public void validate(Map<String, Object> conf) {
        Params p = new Params(conf);
        String kind = kindOf(p);
        if (kind.equals("trace") && p.stringValue("workload.trace", null) == null) {
            throw new IllegalArgumentException("workload.feed=trace needs workload.trace=<path of a .ndjson(.gz) trace>");
        }
        if (kind.equals("lines") && p.stringValue("workload.input", null) == null) {
            throw new IllegalArgumentException("workload.feed=lines needs workload.input=<path of a text file>");
        }
        p.doubleAtLeast("workload.rate", 100.0, 0.0);
        p.doubleAtLeast("workload.replay.speed", 1.0, 1e-9);
        p.longValue("workload.total", 0);
        p.intAtLeast("workload.keys", 1000, 1);
        p.intAtLeast("workload.tuple.bytes", 10, 1);
        p.intAtLeast("workload.emit.batch", 100, 1);
        latencyFromEmit(p);
        String schedule = p.stringValue("workload.rate.schedule", null);
        if (schedule != null && Files.isReadable(Paths.get(schedule))) {
            new ScheduleFile(Paths.get(schedule)).load();
        }
    }

    private String kindOf(Params p) {
        String dflt = p.stringValue("workload.trace", null) != null ? "trace" : defaultKind;
        return kind(p.stringValue("workload.feed", dflt));
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        Params p = new Params(conf);
        int taskIndex = context.getThisTaskIndex();
        int tasks = context.getComponentTasks(context.getThisComponentId()).size();
        long total = p.longValue("workload.total", 0);
        this.batch = p.intAtLeast("workload.emit.batch", 100, 1);
        this.fromEmit = latencyFromEmit(p);
        this.feed = makeFeed(p, taskIndex, tasks, total);
        this.replay = new ArrayDeque<>();
        this.recorder = new SeriesRecorder(new SeriesRecorder.Gauges() {
            public long pending() {
                return inFlight;
            }

            public double behindMs() {
                return Math.max(0, elapsedSeconds(System.nanoTime()) - feed.nextTime()) * 1000.0;
            }

            public long badLines() {
                return feed.badLines();
            }

            public double targetRate() {
                return feed.targetRate(elapsedSeconds(System.nanoTime()));
            }
        });
        Path dir = MeasureDir.resolve(conf);
        this.series = new SeriesFile(dir, context.getThisComponentId(), context.getThisTaskId());
        this.startNanos = System.nanoTime();
        this.recorder.start(System.currentTimeMillis());
        this.lastSecond = System.currentTimeMillis() / 1000;
        LOG.info("feed task {}/{} ({}) writing its series to {}", taskIndex, tasks, kindOf(p), series.path());
    }

    private Feed makeFeed(Params p, int taskIndex, int tasks, long total) {
        String kind = kindOf(p);
        if (kind.equals("trace")) {
            Path trace = Paths.get(p.stringValue("workload.trace", ""));
            try {
                return new TraceFeed(TraceReader.open(trace), p.doubleAtLeast("workload.replay.speed", 1.0, 1e-9),
                    taskIndex, tasks, total, fields.size());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open trace " + trace, e);
            }
        }
        ItemMaker maker;
        if (kind.equals("lines")) {
            Path input = Paths.get(p.stringValue("workload.input", ""));
            try {
                maker = ItemMaker.lines(Files.readAllLines(input, StandardCharsets.UTF_8), fields.size());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read workload.input " + input, e);
            }
        } else {
            maker = ItemMaker.generated(p.intAtLeast("workload.keys", 1000, 1),
                p.intAtLeast("workload.tuple.bytes", 10, 1), fields.size());
        }
        RateSchedule schedule = RateSchedule.constant(p.doubleAtLeast("workload.rate", 100.0, 0.0));
        String schedulePath = p.stringValue("workload.rate.schedule", null);
        if (schedulePath != null) {
            scheduleFile = new ScheduleFile(Paths.get(schedulePath));
            try {
                schedule = scheduleFile.load();
            } catch (IllegalArgumentException e) {
                LOG.error("{}; using the constant workload.rate {} until the file is fixed", e.getMessage(),
                    schedule.steps().get(0).rate());
            }
        }
        return new PacedFeed(maker, schedule, taskIndex, tasks, total);
    }

    private double elapsedSeconds(long nowNanos) {
        return (nowNanos - startNanos) / 1e9;
    }

    @Override
    public void nextTuple() {
        long nowNanos = System.nanoTime();
        long nowMs = System.currentTimeMillis();
        if (nowMs / 1000 != lastSecond) {
            onNewSecond(nowMs, nowNanos);
        }
        Pending again = replay.poll();
        if (again != null) {
            collector.emit(again.values, again);
            inFlight++;
            recorder.replayed(nowMs);
            return;
        }
        double elapsed = elapsedSeconds(nowNanos);
        for (int i = 0; i < batch; i++) {
            double t = feed.nextTime();
            if (t > elapsed) {
                break;
            }
            long intended = startNanos + (long) (t * 1e9);
            Pending p = new Pending(feed.take(), fromEmit ? nowNanos : intended);
            collector.emit(p.values, p);
            inFlight++;
            recorder.emitted(nowMs);
        }
    }

    private static boolean latencyFromEmit(Params p) {
        String from = p.stringValue("workload.latency.from", "intended");
        if (!from.equals("intended") && !from.equals("emit")) {
            throw new IllegalArgumentException("workload.latency.from must be intended or emit, got '" + from + "'");
        }
        return from.equals("emit");
    }

    private void onNewSecond(long nowMs, long nowNanos) {
        lastSecond = nowMs / 1000;
        write(recorder.drain(nowMs));
        if (scheduleFile != null && feed instanceof PacedFeed paced) {
            RateSchedule next = scheduleFile.poll();
            if (next != null) {
                paced.reschedule(next, elapsedSeconds(nowNanos));
                LOG.info("rate schedule changed: {}", next);
            }
            String problem = scheduleFile.takeProblem();
            if (problem != null) {
                LOG.warn(problem);
            }
        }
        long bad = feed.badLines();
        if (bad != reportedBadLines) {
            LOG.warn("trace: {} unreadable line(s) skipped so far; last: {}", bad,
                feed instanceof TraceFeed tf ? tf.lastProblem() : "?");
            reportedBadLines = bad;
        }
        if (!announcedEnd && feed.exhausted()) {
            announcedEnd = true;
            LOG.info("feed exhausted: every item of this task has been emitted");
        }
    }

    private void write(List<SecondStats> seconds) {
        String problem = series.append(seconds);
        if (problem != null) {
            LOG.error(problem);
        }
    }

    @Override
    public void ack(Object msgId) {
        Pending p = (Pending) msgId;
        inFlight--;
        recorder.acked(System.currentTimeMillis(), (System.nanoTime() - p.sinceNanos) / 1000);
    }

    @Override
    public void fail(Object msgId) {
        inFlight--;
        recorder.failed(System.currentTimeMillis());
        replay.add((Pending) msgId);
    }

    @Override
    public void deactivate() {
        write(recorder.drain(System.currentTimeMillis()));
    }

    @Override
    public void close() {
        if (recorder != null) {
            write(recorder.drainAll(System.currentTimeMillis()));
            series.close();
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields(fields));
    }
}
