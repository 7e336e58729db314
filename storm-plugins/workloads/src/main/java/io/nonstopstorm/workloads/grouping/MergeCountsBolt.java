package io.nonstopstorm.workloads.grouping;

import io.nonstopstorm.grouping.aggregate.CountMerger;
import io.nonstopstorm.workloads.measure.CountsSnapshot;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * The reduce half of periodic aggregation: merges the (word, count) partials of all counting workers
 * (fields-grouped on the word, so each word's total lives in one task) and writes the totals to
 * {@code counts-<component>-<task>.json} on every tick when they changed; "tuples" there is the sum.
 */
public class MergeCountsBolt extends BaseRichBolt {
    private transient OutputCollector collector;
    private transient CountMerger<String> merger;
    private transient CountsSnapshot snapshot;
    private transient long total;

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.merger = new CountMerger<>();
        this.snapshot = CountsSnapshot.forTask(conf, context);
    }

    @Override
    public void execute(Tuple input) {
        if (TupleUtils.isTick(input)) {
            write();
            return;
        }
        long count = input.getLong(1);
        merger.merge(Map.of(input.getString(0), count));
        total += count;
        snapshot.changed();
        collector.ack(input);
    }

    private void write() {
        snapshot.writeIfChanged(merger.totals(), total);
    }

    @Override
    public void cleanup() {
        if (snapshot != null) {
            write();
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
