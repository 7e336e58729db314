package io.nonstopstorm.workloads.join;

import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * Joins the "left" and "right" streams (both fields-grouped on the key, so a key's items meet in one
 * task) within a time window ({@link WindowJoin}); each match is emitted anchored to the arriving tuple,
 * which is then acked.
 */
public class JoinBolt extends BaseRichBolt {
    private final String leftComponent;
    private final long windowMs;
    private final int maxPerKey;
    private transient OutputCollector collector;
    private transient WindowJoin join;

    public JoinBolt(String leftComponent, long windowMs, int maxPerKey) {
        this.leftComponent = leftComponent;
        this.windowMs = windowMs;
        this.maxPerKey = maxPerKey;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.join = new WindowJoin(windowMs, maxPerKey);
    }

    @Override
    public void execute(Tuple input) {
        WindowJoin.Side side = leftComponent.equals(input.getSourceComponent()) ? WindowJoin.Side.LEFT : WindowJoin.Side.RIGHT;
        String key = input.getString(0);
        String payload = input.getString(1);
        for (String other : join.add(side, key, payload, System.currentTimeMillis())) {
            collector.emit(input, side == WindowJoin.Side.LEFT ? new Values(key, payload, other) : new Values(key, other, payload));
        }
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("key", "left", "right"));
    }
}
