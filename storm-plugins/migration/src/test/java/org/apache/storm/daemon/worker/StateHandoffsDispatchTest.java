package org.apache.storm.daemon.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.nonstopstorm.migration.state.HandoffState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.WindowedBoltExecutor;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.topology.base.BaseWindowedBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;
import org.apache.storm.windowing.TupleWindow;
import org.junit.jupiter.api.Test;

/** Which handoff StateHandoffs picks for a task object, and that the windowed one carries a window over. */
class StateHandoffsDispatchTest {
    private static final Map<String, Object> CONF = Utils.readDefaultConfig();

    static final class Sums extends BaseWindowedBolt {
        final List<Long> sums = new ArrayList<>();

        @Override
        public void execute(TupleWindow w) {
            sums.add(w.get().stream().mapToLong(t -> t.getLong(0)).sum());
        }
    }

    static final class NoSpout extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> conf, TopologyContext context,
                         org.apache.storm.spout.SpoutOutputCollector collector) {
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    static final class Quiet implements IOutputCollector {
        @Override
        public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
            return List.of();
        }

        @Override
        public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        }

        @Override
        public void ack(Tuple input) {
        }

        @Override
        public void fail(Tuple input) {
        }

        @Override
        public void resetTimeout(Tuple input) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void reportError(Throwable error) {
        }
    }

    private static final TopologyContext CONTEXT;

    static {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new NoSpout());
        b.setBolt("window", new Sums().withTumblingWindow(BaseWindowedBolt.Count.of(3))).shuffleGrouping("numbers");
        CONTEXT = new TopologyContext(b.createTopology(), CONF, Map.of(1, "numbers", 2, "window"),
                                      Map.of("numbers", List.of(1), "window", List.of(2)),
                                      Map.of("numbers", Map.of("default", new Fields("n")), "window", Map.of()),
                                      new HashMap<>(), "t-1", null, null, 2, 6700, List.of(2), new HashMap<>(),
                                      new HashMap<>(), new HashMap<>(), new HashMap<>(), new AtomicBoolean(), null);
    }

    private static WindowedBoltExecutor prepared(Sums bolt) {
        WindowedBoltExecutor e = new WindowedBoltExecutor(bolt);
        Map<String, Object> conf = new HashMap<>(CONF);
        conf.putAll(bolt.getComponentConfiguration());
        e.prepare(conf, CONTEXT, new OutputCollector(new Quiet()));
        return e;
    }

    private static TupleImpl number(long n) {
        return new TupleImpl(CONTEXT, new Values(n), "numbers", 1, "default", MessageId.makeId(Map.of(n, n)));
    }

    @SuppressWarnings("unchecked")
    private static void restore(HandoffState<?> h, Object snapshot) {
        ((HandoffState<Object>) h).restoreState(snapshot);
    }

    @Test
    void aCountWindowedBoltIsHandedOverWithItsWindow() {
        Sums oldBolt = new Sums();
        oldBolt.withTumblingWindow(BaseWindowedBolt.Count.of(3));
        WindowedBoltExecutor old = prepared(oldBolt);
        old.execute(number(1));
        old.execute(number(2));
        Sums newBolt = new Sums();
        newBolt.withTumblingWindow(BaseWindowedBolt.Count.of(3));
        WindowedBoltExecutor fresh = prepared(newBolt);

        HandoffState<?> from = StateHandoffs.handoffOf(old, null);
        assertNotNull(from);
        restore(StateHandoffs.handoffOf(fresh, CONTEXT), from.snapshotState());
        fresh.execute(number(3));
        assertEquals(List.of(6L), newBolt.sums, "the window fired with the two handed-over tuples and the new one");
        assertEquals(List.of(), oldBolt.sums);
    }

    @Test
    void aTimeWindowedBoltAndAPlainObjectAreNotHandedOver() {
        Sums timed = new Sums();
        timed.withTumblingWindow(BaseWindowedBolt.Duration.seconds(5));
        WindowedBoltExecutor e = prepared(timed);
        try {
            assertNull(StateHandoffs.handoffOf(e, null));
        } finally {
            e.cleanup();
        }
        assertNull(StateHandoffs.handoffOf(new Object(), null));
    }
}
