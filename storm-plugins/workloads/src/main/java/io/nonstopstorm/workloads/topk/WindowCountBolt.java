package io.nonstopstorm.workloads.topk;

import java.util.ArrayList;
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
 * Counts the keys it receives (fields-grouped, so each key in one task) over tumbling windows closed by
 * tick tuples, and at each close emits its partial top K as one tuple. Input tuples are acked as they
 * are counted: a window's ranking is a summary, not a tuple's result, so it is emitted unanchored.
 */
public class WindowCountBolt extends BaseRichBolt {
    private final int k;
    private transient OutputCollector collector;
    private transient WindowCounts window;

    public WindowCountBolt(int k) {
        this.k = k;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.window = new WindowCounts();
    }

    @Override
    public void execute(Tuple input) {
        if (TupleUtils.isTick(input)) {
            collector.emit(new Values(flatten(window.close(k))));
            return;
        }
        window.add(input.getString(0));
        collector.ack(input);
    }

    /** A ranking as a list of alternating key and count: types Storm's Kryo serialises without registration. */
    static ArrayList<Object> flatten(List<Map.Entry<String, Long>> ranking) {
        ArrayList<Object> out = new ArrayList<>(2 * ranking.size());
        for (Map.Entry<String, Long> e : ranking) {
            out.add(e.getKey());
            out.add(e.getValue());
        }
        return out;
    }

    static List<Map.Entry<String, Long>> unflatten(List<?> flat) {
        List<Map.Entry<String, Long>> out = new ArrayList<>(flat.size() / 2);
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            out.add(Map.entry((String) flat.get(i), ((Number) flat.get(i + 1)).longValue()));
        }
        return out;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("ranking"));
    }
}
