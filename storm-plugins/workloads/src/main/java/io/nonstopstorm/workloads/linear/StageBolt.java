package io.nonstopstorm.workloads.linear;

import io.nonstopstorm.workloads.feed.ItemMaker;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * A stage of the linear template: spends {@code costMicros} of CPU per tuple, then (unless it is the
 * last stage) emits (key, payload) anchored with a payload of {@code outBytes} bytes.
 */
public class StageBolt extends BaseRichBolt {
    private final long costMicros;
    private final int outBytes;
    private transient OutputCollector collector;
    private transient String payload;
    private transient long sink;

    /** @param outBytes payload size of emitted tuples; 0 = terminal stage (acks only) */
    public StageBolt(long costMicros, int outBytes) {
        this.costMicros = costMicros;
        this.outBytes = outBytes;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.payload = outBytes > 0 ? ItemMaker.payload(context.getThisTaskId(), outBytes) : null;
    }

    @Override
    public void execute(Tuple input) {
        sink += CpuBurn.spinMicros(costMicros);
        if (payload != null) {
            collector.emit(input, new Values(input.getString(0), payload));
        }
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        if (outBytes > 0) {
            declarer.declare(new Fields("key", "payload"));
        }
    }
}
