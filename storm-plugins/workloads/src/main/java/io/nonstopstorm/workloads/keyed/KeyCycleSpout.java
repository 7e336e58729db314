package io.nonstopstorm.workloads.keyed;

import java.util.List;
import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;

/** Emits the key cycle, unanchored, at a fixed rate per task (paced against the start), or flat out if rate <= 0. */
public class KeyCycleSpout extends BaseRichSpout {
    private final double ratePerSecond;
    private final int keys;
    private transient SpoutOutputCollector collector;
    private transient List<String> cycle;
    private transient long next;
    private transient long startNanos;

    public KeyCycleSpout(double ratePerSecond, int keys) {
        this.ratePerSecond = ratePerSecond;
        this.keys = keys;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.cycle = KeyCycle.cycle(keys);
        this.startNanos = System.nanoTime();
    }

    @Override
    public void nextTuple() {
        if (ratePerSecond > 0 && next >= (System.nanoTime() - startNanos) / 1e9 * ratePerSecond) {
            Utils.sleep(1);
            return;
        }
        collector.emit(new Values(cycle.get((int) (next % cycle.size())), next));
        next++;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("key", "seq"));
    }
}
