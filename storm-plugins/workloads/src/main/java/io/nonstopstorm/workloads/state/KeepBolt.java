package io.nonstopstorm.workloads.state;

import io.nonstopstorm.migration.state.HandoffState;
import io.nonstopstorm.workloads.measure.CountsSnapshot;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * The state-size benchmark's bolt that opts in to the suite's handoff: it counts every key it receives and
 * holds a {@link Ballast} of the configured size; both move with its executor. Its counts go to a
 * {@link CountsSnapshot} on ticks, so a run can be checked against its input. No write at cleanup: the
 * instance that handed its counts over must not overwrite the new owner's file with its last view.
 */
public class KeepBolt extends BaseRichBolt implements HandoffState<HashMap<String, Object>> {
    static final String COUNTS = "counts";
    static final String BALLAST = "ballast";
    private final Ballast.Spec ballastSpec;
    private transient OutputCollector collector;
    private transient HashMap<String, Long> counts;
    private transient HashMap<String, byte[]> ballast;
    private transient CountsSnapshot snapshot;
    private transient long tuples;

    public KeepBolt(Ballast.Spec ballastSpec) {
        this.ballastSpec = ballastSpec;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.counts = new HashMap<>();
        this.ballast = ballastSpec.make();
        this.snapshot = CountsSnapshot.forTask(conf, context);
    }

    @Override
    public void execute(Tuple input) {
        if (TupleUtils.isTick(input)) {
            snapshot.writeIfChanged(counts, tuples);   // a handed-over instance gets no more ticks
            return;
        }
        counts.merge(input.getString(0), 1L, Long::sum);
        tuples++;
        snapshot.changed();
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }

    /** Two HashMaps in a HashMap (Storm's Kryo registers HashMap; byte[] it writes natively). */
    @Override
    public HashMap<String, Object> snapshotState() {
        HashMap<String, Object> out = new HashMap<>();
        out.put(COUNTS, new HashMap<>(counts));
        out.put(BALLAST, ballast);
        return out;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void restoreState(HashMap<String, Object> state) {
        counts = new HashMap<>((Map<String, Long>) state.get(COUNTS));
        ballast = (HashMap<String, byte[]>) state.get(BALLAST);
        tuples = counts.values().stream().mapToLong(Long::longValue).sum();
        if (snapshot != null) {   // installed after prepare in a worker; tests restore a bare instance
            snapshot.changed();
        }
    }
}
