package io.nonstopstorm.workloads.grouping;

import io.nonstopstorm.grouping.aggregate.PartialCounts;
import io.nonstopstorm.workloads.linear.CpuBurn;
import io.nonstopstorm.workloads.measure.CountsSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The counting worker of the grouping experiment: every tuple costs a fixed processing time (the paper's
 * emulation of a per-key CPU cost), multiplied by this task's slowdown factor (heterogeneous workers),
 * then its key is counted. Periodic aggregation: on every tick the partial counts since the last tick go
 * downstream as (word, count) and start afresh. The task also keeps every key it has seen with its
 * cumulative count and writes them to {@code counts-<component>-<task>.json} on ticks: the number of keys
 * there is this worker's memory footprint.
 *
 * <p>Cost modes: {@code sleep} waits (parks) the time, paced so that waking up late is paid back while
 * tuples queue ({@link ServicePacer}), and uses no CPU, so a shared machine's CPU contention changes the
 * workers' capacities as little as possible; {@code spin} busy-waits the time on the CPU.
 */
public class KeyCostBolt extends BaseRichBolt {
    private static final Logger LOG = LoggerFactory.getLogger(KeyCostBolt.class);
    public static final String PARTIALS = "default";

    private final long costMicros;
    private final String mode;
    private final List<Double> slowdown;
    private transient OutputCollector collector;
    private transient PartialCounts<String> partial;
    private transient Map<String, Long> seen;
    private transient CountsSnapshot snapshot;
    private transient ServicePacer pacer;
    private transient long costNanos;
    private transient long tuples;
    private transient long sink;

    /** @param slowdown factor per task index (missing indexes: 1.0) */
    public KeyCostBolt(long costMicros, String mode, List<Double> slowdown) {
        if (costMicros < 0) {
            throw new IllegalArgumentException("workload.cost.us must be >= 0, got " + costMicros);
        }
        if (!mode.equals("sleep") && !mode.equals("spin")) {
            throw new IllegalArgumentException("workload.cost.mode must be sleep or spin, got '" + mode + "'");
        }
        for (Double f : slowdown) {
            if (f == null || !(f >= 1.0) || f.isInfinite()) {
                throw new IllegalArgumentException("workload.slowdown factors must be >= 1, got " + slowdown);
            }
        }
        this.costMicros = costMicros;
        this.mode = mode;
        this.slowdown = List.copyOf(slowdown);
    }

    /** This task's slowdown factor. */
    static double factorOf(List<Double> slowdown, int taskIndex) {
        return taskIndex < slowdown.size() ? slowdown.get(taskIndex) : 1.0;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.partial = new PartialCounts<>();
        this.seen = new HashMap<>();
        this.snapshot = CountsSnapshot.forTask(conf, context);
        this.pacer = new ServicePacer(1_000_000); // 1 ms: Storm's own work between two executes fits
        double factor = factorOf(slowdown, context.getThisTaskIndex());
        this.costNanos = Math.round(costMicros * 1000 * factor);
        LOG.info("task {} (index {}): {} us per tuple ({} x {} us, {})", context.getThisTaskId(),
            context.getThisTaskIndex(), costNanos / 1000, factor, costMicros, mode);
    }

    @Override
    public void execute(Tuple input) {
        if (TupleUtils.isTick(input)) {
            flush();
            return;
        }
        work();
        String key = input.getString(0);
        partial.add(key);
        seen.merge(key, 1L, Long::sum);
        tuples++;
        snapshot.changed();
        collector.ack(input);
    }

    private void work() {
        if (costNanos == 0) {
            return;
        }
        if (mode.equals("spin")) {
            sink += CpuBurn.spinMicros(costNanos / 1000);
            return;
        }
        long deadline = pacer.deadline(System.nanoTime(), costNanos);
        long now;
        while ((now = System.nanoTime()) < deadline) {
            LockSupport.parkNanos(deadline - now);
        }
        pacer.done(now);
    }

    /** Periodic aggregation: ship the partial counts, and write this worker's key set. */
    private void flush() {
        for (Map.Entry<String, Long> e : partial.drain().entrySet()) {
            collector.emit(PARTIALS, new Values(e.getKey(), e.getValue()));
        }
        snapshot.writeIfChanged(seen, tuples);
    }

    @Override
    public void cleanup() {
        if (snapshot != null) {
            snapshot.writeIfChanged(seen, tuples);
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(PARTIALS, new Fields("word", "count"));
    }
}
