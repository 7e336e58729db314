package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot;
import io.nonstopstorm.migration.worker.StormTestParts.Acks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.serialization.SerializationFactory;
import org.apache.storm.spout.CheckPointState.Action;
import org.apache.storm.spout.CheckpointSpout;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.StatefulBoltExecutor;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/** Against Storm's own StatefulBoltExecutor and in-memory provider, driven by real checkpoint tuples. */
class StatefulBoltAccessTest {
    private static final int SPOUT = 1;
    private static final int CHECKPOINTS = 2;
    private static final int STATE = 3;
    private static final Map<String, Object> CONF = Utils.readDefaultConfig();

    /** Counts per key, as the test topology's bolt does; remembers the state initState gave it. */
    static final class Counter extends BaseStatefulBolt<KeyValueState<String, Long>> {
        transient KeyValueState<String, Long> counts;
        transient int inits;
        transient boolean failInit;
        transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
            if (failInit) {
                throw new IllegalStateException("no");
            }
            counts = state;
            inits++;
        }

        @Override
        public void execute(Tuple input) {
            counts.put(input.getString(0), counts.get(input.getString(0), 0L) + 1);
            collector.ack(input);   // Storm's executor holds the ack back until the next COMMIT
        }
    }

    private static final StormTopology TOPOLOGY;
    private static final Map<String, Map<String, Fields>> FIELDS = Map.of(
        "numbers", Map.of("default", new Fields("key")),
        CheckpointSpout.CHECKPOINT_COMPONENT_ID,
        Map.of(CheckpointSpout.CHECKPOINT_STREAM_ID, new Fields(CheckpointSpout.CHECKPOINT_FIELD_TXID,
                                                              CheckpointSpout.CHECKPOINT_FIELD_ACTION)),
        "state", Map.of("default", new Fields()));

    static {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new StormTestParts.NoSpout("key"));
        b.setBolt("state", new Counter()).shuffleGrouping("numbers");
        TOPOLOGY = b.createTopology();
    }

    private static TopologyContext context() {
        return StormTestParts.context(TOPOLOGY, CONF, Map.of(SPOUT, "numbers", CHECKPOINTS,
                                                             CheckpointSpout.CHECKPOINT_COMPONENT_ID, STATE, "state"),
                                      FIELDS, STATE);
    }

    private record Instance(StatefulBoltExecutor<KeyValueState<String, Long>> executor, Counter bolt, Acks acks) {
    }

    private static Instance instance() {
        Counter bolt = new Counter();
        StatefulBoltExecutor<KeyValueState<String, Long>> e = new StatefulBoltExecutor<>(bolt);
        Acks acks = new Acks();
        e.prepare(CONF, context(), new OutputCollector(acks));
        return new Instance(e, bolt, acks);
    }

    private long nextId = 100;

    private TupleImpl data(String key) {
        long root = nextId++;
        return new TupleImpl(context(), new Values(key), "numbers", SPOUT, "default", MessageId.makeId(Map.of(root, root * 7)));
    }

    private TupleImpl checkpoint(Action action, long txid) {
        long root = nextId++;
        return new TupleImpl(context(), new Values(txid, action), CheckpointSpout.CHECKPOINT_COMPONENT_ID, CHECKPOINTS,
                             CheckpointSpout.CHECKPOINT_STREAM_ID, MessageId.makeId(Map.of(root, root)));
    }

    private static StatefulBoltAccess access() {
        return StatefulBoltAccess.THIS_STORM.reader().orElseThrow();
    }

    /** Through the topology's Kryo, as the snapshot travels. */
    private static Object overTheWire(Object wire) {
        Kryo kryo = SerializationFactory.getKryo(CONF);
        Output out = new Output(256, -1);
        kryo.writeClassAndObject(out, wire);
        return kryo.readClassAndObject(new Input(out.toBytes()));
    }

    @Test
    void thisStormsStatefulBoltExecutorIsTheOneTheAccessReads() {
        assertEquals(java.util.Optional.empty(), StatefulBoltAccess.THIS_STORM.why());
    }

    @Test
    void aPrepareOnTheOldInstanceIsCommittedByTheNewOneWithTheWholeStateAndEveryTupleAckedOnce() {
        Instance a = instance();
        a.executor().execute(checkpoint(Action.INITSTATE, 0));
        List<TupleImpl> sent = new ArrayList<>();
        for (String k : List.of("x", "y", "x")) {
            sent.add(data(k));
            a.executor().execute(sent.get(sent.size() - 1));
        }
        a.executor().execute(checkpoint(Action.PREPARE, 1));
        for (String k : List.of("x", "z")) {
            sent.add(data(k));
            a.executor().execute(sent.get(sent.size() - 1));
        }

        assertTrue(access().handsOver(a.executor()));
        StatefulBoltSnapshot s = access().capture(a.executor());
        StatefulBoltSnapshot.InMemory state = (StatefulBoltSnapshot.InMemory) s.contents();
        assertEquals(Map.of("x", 3L, "y", 1L, "z", 1L), state.current());
        assertEquals(1, state.prepared().txid());
        assertEquals(Map.of("x", 2L, "y", 1L), state.prepared().contents());
        assertEquals(3, s.preparedTuples().size());
        assertEquals(2, s.acked().size());
        assertEquals(1, s.lastTxid());

        Instance b = instance();
        access().restore(b.executor(), StatefulBoltSnapshot.fromWire(overTheWire(s.toWire())), context());
        assertEquals(1, b.bolt().inits, "initState with the handed-over state, as INITSTATE would");
        assertEquals(3L, b.bolt().counts.get("x"));

        // The COMMIT of the old instance's PREPARE: the new one has that prepared state, and acks what it covered.
        assertDoesNotThrow(() -> b.executor().execute(checkpoint(Action.COMMIT, 1)));
        assertTrue(b.acks().failed.isEmpty(), "the commit failed: " + b.acks().failed);
        assertEquals(sent.subList(0, 3).stream().map(Acks::payload).toList(), b.acks().acked);
        b.executor().execute(data("y"));
        b.executor().execute(checkpoint(Action.PREPARE, 2));
        b.executor().execute(checkpoint(Action.COMMIT, 2));
        assertEquals(6, b.acks().acked.size(), "the three of PREPARE 1, then the two acked after it and the new one");
        assertEquals(sent.subList(3, 5).stream().map(Acks::payload).toList(), b.acks().acked.subList(3, 5));
        assertEquals(2L, b.bolt().counts.get("y"));
        assertEquals(1, b.bolt().inits, "no INITSTATE, no rollback");

        // Reading the old instance changed nothing there: it could go on itself.
        assertTrue(a.acks().acked.isEmpty());
        a.executor().execute(checkpoint(Action.COMMIT, 1));
        assertEquals(3, a.acks().acked.size());
    }

    @Test
    void anInstanceWaitingForItsInitStateIsNotHandedOver() {
        Instance a = instance();
        a.executor().execute(data("x"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> access().capture(a.executor()));
        assertTrue(e.getMessage().contains("not initialised"), e.getMessage());
    }

    @Test
    void aBoltWhoseInitStateFailsIsLeftWaitingForStormsInitState() {
        Instance a = instance();
        a.executor().execute(checkpoint(Action.INITSTATE, 0));
        a.executor().execute(data("x"));
        StatefulBoltSnapshot s = access().capture(a.executor());
        Instance b = instance();
        b.bolt().failInit = true;
        assertThrows(IllegalStateException.class, () -> access().restore(b.executor(), s, context()));
        assertEquals(0, b.bolt().inits);
        b.bolt().failInit = false;
        b.executor().execute(checkpoint(Action.INITSTATE, 0));
        assertEquals(1, b.bolt().inits);
        assertNotNull(b.bolt().counts);
        assertFalse(b.bolt().counts.iterator().hasNext(), "Storm's INITSTATE found the empty state, not a half install");
    }

    @Test
    void aStormWithoutOneOfTheFieldsIsReportedWithTheFieldAndNothingIsHandedOver() {
        StormReflection.Loaded<StatefulBoltAccess> l = StatefulBoltAccess.load(name -> name.equals(StatefulBoltAccess.EXECUTOR)
            ? Object.class : stormClass(name));
        assertEquals(null, l.access());
        assertTrue(l.unavailable().contains("bolt"), l.unavailable());
    }

    @Test
    void aStatefulWindowedBoltIsRefusedWithTheReason() {
        var windowed = new org.apache.storm.topology.base.BaseStatefulWindowedBolt<KeyValueState<String, Long>>() {
            @Override
            public void initState(KeyValueState<String, Long> state) {
            }

            @Override
            public void execute(org.apache.storm.windowing.TupleWindow window) {
            }
        }.withTumblingWindow(new org.apache.storm.topology.base.BaseWindowedBolt.Count(3));
        var e = new StatefulBoltExecutor<>(new org.apache.storm.topology.StatefulWindowedBoltExecutor<>(windowed));
        assertFalse(access().handsOver(e));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> access().capture(e));
        assertTrue(refused.getMessage().contains("windowed"), refused.getMessage());
    }

    @Test
    void anotherStateThanTheInMemoryOneIsRefusedWithTheReason() {
        assertFalse(access().wraps(new Object()));
        assertFalse(access().handsOver(new Object()));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> access().capture(new Object()));
        assertTrue(e.getMessage().contains("not a Storm stateful bolt executor"), e.getMessage());
        var other = new StatefulBoltExecutor<>(new Counter());
        other.prepare(Map.of("topology.state.provider", OtherProvider.class.getName()), context(),
                      new OutputCollector(new Acks()));
        assertTrue(access().wraps(other));
        assertFalse(access().handsOver(other));
        assertTrue(access().refusal(other).orElseThrow().contains("whose provider has no handoff"),
                   access().refusal(other).orElseThrow());
    }

    /** A provider whose state class says nothing of its store: its bolts keep Storm's recovery on a move. */
    public static final class OtherProvider implements org.apache.storm.state.StateProvider {
        @Override
        public org.apache.storm.state.State newState(String namespace, Map<String, Object> topoConf,
                                                     TopologyContext context) {
            return new org.apache.storm.state.InMemoryKeyValueState<String, Long>() {
            };
        }
    }

    private static Class<?> stormClass(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
