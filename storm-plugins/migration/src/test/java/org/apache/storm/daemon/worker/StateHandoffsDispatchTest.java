package org.apache.storm.daemon.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.nonstopstorm.migration.state.HandoffState;
import io.nonstopstorm.migration.worker.StormTestParts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.WindowedBoltExecutor;
import org.apache.storm.topology.base.BaseWindowedBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
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

    private static final TopologyContext CONTEXT;

    static {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new StormTestParts.NoSpout("n"));
        b.setBolt("window", new Sums().withTumblingWindow(BaseWindowedBolt.Count.of(3))).shuffleGrouping("numbers");
        CONTEXT = StormTestParts.context(b.createTopology(), CONF, Map.of(1, "numbers", 2, "window"),
                                         Map.of("numbers", Map.of("default", new Fields("n")), "window", Map.of()), 2);
    }

    private static WindowedBoltExecutor prepared(Sums bolt) {
        WindowedBoltExecutor e = new WindowedBoltExecutor(bolt);
        Map<String, Object> conf = new HashMap<>(CONF);
        conf.putAll(bolt.getComponentConfiguration());
        e.prepare(conf, CONTEXT, new OutputCollector(new StormTestParts.Acks()));
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
