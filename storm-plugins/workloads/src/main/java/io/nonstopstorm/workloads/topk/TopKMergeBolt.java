package io.nonstopstorm.workloads.topk;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.TupleUtils;

/**
 * The global Top-K (one task, global grouping): keeps each counting task's latest partial ranking and
 * on every tick emits their merge, the top K keys of the last window, as alternating key and count.
 */
public class TopKMergeBolt extends BaseRichBolt {
    private final int k;
    private transient OutputCollector collector;
    private transient Map<Integer, List<Map.Entry<String, Long>>> latest;

    public TopKMergeBolt(int k) {
        this.k = k;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.latest = new HashMap<>();
    }

    @Override
    public void execute(Tuple input) {
        if (TupleUtils.isTick(input)) {
            if (!latest.isEmpty()) {
                collector.emit(new Values(WindowCountBolt.flatten(Ranking.merge(new ArrayList<>(latest.values()), k))));
            }
            return;
        }
        latest.put(input.getSourceTask(), WindowCountBolt.unflatten((List<?>) input.getValue(0)));
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("top"));
    }
}
