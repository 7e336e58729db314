package io.nonstopstorm.workloads.state;

import io.nonstopstorm.workloads.measure.CountsSnapshot;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * The same counting as {@link KeepBolt}, written against Storm's stateful bolt API: counts and ballast live
 * in the task's {@link KeyValueState} (in memory, where the suite's handoff moves it; or in a persistent
 * provider such as {@link FileStateProvider}, where Storm restores the last checkpoint and replays).
 */
public class KeepStatefulBolt extends BaseStatefulBolt<KeyValueState<String, Object>> {
    private static final String COUNT = "count:";
    private final Ballast.Spec ballastSpec;
    private transient OutputCollector collector;
    private transient KeyValueState<String, Object> state;
    private transient CountsSnapshot snapshot;

    public KeepStatefulBolt(Ballast.Spec ballastSpec) {
        this.ballastSpec = ballastSpec;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.snapshot = CountsSnapshot.forTask(conf, context);
    }

    /** A state that already holds the ballast (restored or handed over) keeps it; an empty one gets it. */
    @Override
    public void initState(KeyValueState<String, Object> state) {
        this.state = state;
        if (state.get(Ballast.PREFIX + 0) == null) {
            ballastSpec.make().forEach(state::put);
        }
        snapshot.changed();
    }

    @Override
    public void execute(Tuple input) {
        if (TupleUtils.isTick(input)) {
            snapshot.writeIfChanged(counts(), tuples());
            return;
        }
        String key = COUNT + input.getString(0);
        state.put(key, (Long) state.get(key, 0L) + 1);
        snapshot.changed();
        collector.ack(input);
    }

    private Map<String, Long> counts() {
        Map<String, Long> out = new HashMap<>();
        for (var e : state) {
            if (e.getKey().startsWith(COUNT)) {
                out.put(e.getKey().substring(COUNT.length()), (Long) e.getValue());
            }
        }
        return out;
    }

    private long tuples() {
        return counts().values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
