package io.nonstopstorm.workloads.wordcount;

import io.nonstopstorm.migration.state.HandoffState;
import io.nonstopstorm.workloads.measure.CountsSnapshot;
import java.util.HashMap;
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
 * Word count Bolt 2: counts words (fields-grouped, so each word lives in one task), emits
 * (word, count), and on every tick tuple writes its counts to a {@link CountsSnapshot} if they
 * changed, so a run's result can be checked against the input. Its counts move with it when nonstop
 * migration moves its executor ({@link HandoffState}): the snapshot is the count map. Once an instance
 * handed its counts over it writes no more: the new instance owns them, and a later write of the old
 * one's (its cleanup at the lazy kill) would leave that task's newest file with fewer counts.
 */
public class WordCountBolt extends BaseRichBolt implements HandoffState<HashMap<String, Long>> {
    private transient OutputCollector collector;
    private transient Map<String, Long> counts;
    private transient CountsSnapshot snapshot;
    private transient long tuples;
    /**
     * A snapshot was taken for a handoff and nothing executed since. After a handoff the worker executes
     * nothing more here (it forwards the tuples and drops the ticks); the next execute means the handoff
     * was refused and this instance still owns the counts.
     */
    private transient boolean handedOver;

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.counts = new HashMap<>();
        this.snapshot = CountsSnapshot.forTask(conf, context);
    }

    @Override
    public void execute(Tuple input) {
        handedOver = false;
        if (TupleUtils.isTick(input)) {
            writeSnapshot();
            return;
        }
        String word = input.getString(0);
        long c = counts.merge(word, 1L, Long::sum);
        tuples++;
        snapshot.changed();
        collector.emit(input, new Values(word, c));
        collector.ack(input);
    }

    private void writeSnapshot() {
        if (!handedOver) {
            snapshot.writeIfChanged(counts, tuples);
        }
    }

    @Override
    public void cleanup() {
        writeSnapshot();
    }

    /** A HashMap, which Storm's Kryo registers by default: no topology registration needed. */
    @Override
    public HashMap<String, Long> snapshotState() {
        handedOver = true;
        return new HashMap<>(counts);
    }

    @Override
    public void restoreState(HashMap<String, Long> snapshot) {
        counts = new HashMap<>(snapshot);
        // Every counted word added one to one count.
        tuples = counts.values().stream().mapToLong(Long::longValue).sum();
        if (this.snapshot != null) {  // null only outside a worker (prepare not called)
            this.snapshot.changed();
        }
        handedOver = false;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("word", "count"));
    }
}
