package io.nonstopstorm.workloads.relay;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;

/**
 * Emits 0, 1, 2, ... as reliable tuples at a fixed rate per spout task, up to an optional total.
 * Failed tuples are replayed with the same value, so "acked == total" is an exact end-to-end check.
 */
public class SequenceSpout extends BaseRichSpout {
    private final double ratePerSecond;
    private final long total;
    private transient SpoutOutputCollector collector;
    private transient long next;
    private transient long startNanos;
    private transient Deque<Long> replay;

    public SequenceSpout(double ratePerSecond, long total) {
        this.ratePerSecond = ratePerSecond;
        this.total = total;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.next = 0;
        this.startNanos = System.nanoTime();
        this.replay = new ArrayDeque<>();
    }

    @Override
    public void nextTuple() {
        if (!replay.isEmpty()) {
            long v = replay.poll();
            collector.emit(new Values(v), v);
            return;
        }
        if (total > 0 && next >= total) {
            Utils.sleep(5);
            return;
        }
        // Pace against the start time, so a slow period is caught up rather than lost.
        double elapsedSec = (System.nanoTime() - startNanos) / 1e9;
        if (next >= elapsedSec * ratePerSecond) {
            Utils.sleep(1);
            return;
        }
        collector.emit(new Values(next), next);
        next++;
    }

    @Override
    public void fail(Object msgId) {
        replay.add((Long) msgId);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("seq"));
    }
}
