package io.nonstopstorm.workloads.wordcount;

import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** Word count Bolt 1: one anchored (word) tuple per word; with a KeyCost, also H(n(word)) per word. */
public class SplitSentenceBolt extends BaseRichBolt {
    private final KeyCost cost;
    private transient OutputCollector collector;
    private transient double sink;

    /** @param cost null for the plain word count */
    public SplitSentenceBolt(KeyCost cost) {
        this.cost = cost;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
    }

    @Override
    public void execute(Tuple input) {
        long now = cost == null ? 0 : System.currentTimeMillis();
        for (String word : Words.split(input.getString(0))) {
            if (cost != null) {
                sink += KeyCost.harmonic(cost.iterations(word, now));
            }
            collector.emit(input, new Values(word));
        }
        collector.ack(input);
    }

    /** The computed sum, so the JIT cannot drop the work. */
    public double sink() {
        return sink;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("word"));
    }
}
