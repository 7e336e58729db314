package io.nonstopstorm.workloads.relay;

import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** Passes each tuple on, anchored; with {@code emit=false} it is a terminal sink that only acks. */
public class RelayBolt extends BaseRichBolt {
    private final boolean emit;
    private transient OutputCollector collector;

    public RelayBolt(boolean emit) {
        this.emit = emit;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
    }

    @Override
    public void execute(Tuple input) {
        if (emit) {
            collector.emit(input, new Values(input.getValue(0)));
        }
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        if (emit) {
            declarer.declare(new Fields("seq"));
        }
    }
}
