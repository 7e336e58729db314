package io.nonstopstorm.workloads.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot;
import io.nonstopstorm.workloads.RecordingCollector;
import io.nonstopstorm.migration.state.UnstoredChanges;
import io.nonstopstorm.migration.worker.StatefulBoltAccess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.serialization.SerializationFactory;
import org.apache.storm.spout.CheckPointState.Action;
import org.apache.storm.spout.CheckpointSpout;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.StatefulBoltExecutor;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live move of a stateful bolt whose state is the file provider's (a persistent provider): two of Storm's own
 * {@code StatefulBoltExecutor}s over one state directory, driven by real checkpoint tuples; the old one handles a
 * PREPARE, the handoff carries only what the files lack, the new one gets the COMMIT. No rollback, exact contents,
 * every tuple acked once.
 */
class FileStateHandoffTest {
    private static final int SPOUT = 1;
    private static final int CHECKPOINTS = 2;
    private static final int STATE = 3;

    @TempDir
    Path dir;
    private Map<String, Object> conf;
    private long nextId = 100;

    /** Counts per key; remembers the state initState gave it and the rollbacks Storm asked for. */
    static final class Counter extends BaseStatefulBolt<KeyValueState<String, Long>> {
        transient KeyValueState<String, Long> counts;
        transient int inits;
        transient int rollbacks;
        transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
            counts = state;
            inits++;
        }

        @Override
        public void preRollback() {
            rollbacks++;
        }

        @Override
        public void execute(Tuple input) {
            counts.put(input.getString(0), counts.get(input.getString(0), 0L) + 1);
            collector.ack(input);   // Storm's executor holds the ack back until the next COMMIT
        }
    }

    static final class NoSpout extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> topoConf, TopologyContext context, SpoutOutputCollector collector) {
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("key"));
        }
    }

    private record Instance(StatefulBoltExecutor<KeyValueState<String, Long>> executor, Counter bolt, RecordingCollector acks) {
    }

    @BeforeEach
    void conf() {
        conf = Utils.readDefaultConfig();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, FileStateProvider.class.getName());
        conf.put(FileStateProvider.DIR_KEY, dir.toString());
    }

    private TopologyContext context() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new NoSpout());
        b.setBolt("state", new Counter()).shuffleGrouping("numbers");
        StormTopology topology = b.createTopology();
        Map<Integer, String> taskToComponent = Map.of(SPOUT, "numbers", CHECKPOINTS,
                                                      CheckpointSpout.CHECKPOINT_COMPONENT_ID, STATE, "state");
        Map<String, List<Integer>> tasks = Map.of("numbers", List.of(SPOUT), CheckpointSpout.CHECKPOINT_COMPONENT_ID,
                                                  List.of(CHECKPOINTS), "state", List.of(STATE));
        Map<String, Map<String, Fields>> fields = Map.of(
            "numbers", Map.of("default", new Fields("key")),
            CheckpointSpout.CHECKPOINT_COMPONENT_ID,
            Map.of(CheckpointSpout.CHECKPOINT_STREAM_ID, new Fields(CheckpointSpout.CHECKPOINT_FIELD_TXID,
                                                                  CheckpointSpout.CHECKPOINT_FIELD_ACTION)),
            "state", Map.of("default", new Fields()));
        return new TopologyContext(topology, conf, taskToComponent, tasks, fields, new HashMap<>(), "t-1", null, null,
                                   STATE, 6700, List.of(STATE), new HashMap<>(), new HashMap<>(), new HashMap<>(),
                                   new HashMap<>(), new AtomicBoolean(), null);
    }

    /** An instance of the state task, as a worker prepares it: its state built by the file provider. */
    private Instance instance() {
        Counter bolt = new Counter();
        StatefulBoltExecutor<KeyValueState<String, Long>> e = new StatefulBoltExecutor<>(bolt);
        RecordingCollector acks = new RecordingCollector();
        e.prepare(conf, context(), new OutputCollector(acks));
        return new Instance(e, bolt, acks);
    }

    private TupleImpl data(String key) {
        long root = nextId++;
        return new TupleImpl(context(), new Values(key), "numbers", SPOUT, "default",
                             MessageId.makeId(Map.of(root, root)));
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
    private Object overTheWire(Object wire) {
        Kryo kryo = SerializationFactory.getKryo(conf);
        Output out = new Output(256, -1);
        kryo.writeClassAndObject(out, wire);
        return kryo.readClassAndObject(new Input(out.toBytes()));
    }

    private static Map<String, Long> contents(KeyValueState<String, Long> s) {
        Map<String, Long> out = new HashMap<>();
        s.forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    private static List<Map<Long, Long>> ids(List<TupleImpl> tuples) {
        return tuples.stream().map(t -> t.getMessageId().getAnchorsToIds()).toList();
    }

    @Test
    void aPrepareOnTheOldInstanceIsCommittedByTheNewOneFromTheStoreWithOnlyTheUnstoredChangesHandedOver() {
        Instance a = instance();
        // The new instance is prepared (its state read from the files) before the old one's last commits, as a
        // target worker starts the new executor before the routing switch.
        Instance b = instance();
        a.executor().execute(checkpoint(Action.INITSTATE, 0));
        List<TupleImpl> sent = new ArrayList<>();
        for (String k : List.of("x", "y")) {
            sent.add(data(k));
            a.executor().execute(sent.get(sent.size() - 1));
        }
        a.executor().execute(checkpoint(Action.PREPARE, 1));
        a.executor().execute(checkpoint(Action.COMMIT, 1));          // committed: x 1, y 1
        for (String k : List.of("x", "x", "z")) {
            sent.add(data(k));
            a.executor().execute(sent.get(sent.size() - 1));
        }
        a.executor().execute(checkpoint(Action.PREPARE, 2));         // prepared: x 3, y 1, z 1
        sent.add(data("x"));
        a.executor().execute(sent.get(sent.size() - 1));             // only in A's memory: x 4

        assertTrue(access().handsOver(a.executor()), access().refusal(a.executor()).toString());
        StatefulBoltSnapshot s = access().capture(a.executor());
        assertEquals(new UnstoredChanges(Map.of("x", 4L, "z", 1L), List.of()), s.contents(),
                     "only what the committed files lack: y is unchanged since the commit");
        assertEquals(2, s.lastTxid());
        assertEquals(3, s.preparedTuples().size());
        assertEquals(1, s.acked().size());

        TopologyContext bContext = context();
        access().restore(b.executor(), StatefulBoltSnapshot.fromWire(overTheWire(s.toWire())), bContext,
                         () -> StatefulBoltAccess.providerState(bContext, conf));
        assertEquals(1, b.bolt().inits, "initState with the handed-over state, as INITSTATE would");
        assertEquals(Map.of("x", 4L, "y", 1L, "z", 1L), contents(b.bolt().counts));

        // The COMMIT of the old instance's PREPARE: the new instance's state knows the prepared transaction from
        // the files, commits it, and acks what it covered.
        b.executor().execute(checkpoint(Action.COMMIT, 2));
        assertTrue(b.acks().failed.isEmpty(), "the commit failed: " + b.acks().failed);
        assertEquals(ids(sent.subList(2, 5)), b.acks().acked);
        b.executor().execute(data("y"));
        b.executor().execute(checkpoint(Action.PREPARE, 3));
        b.executor().execute(checkpoint(Action.COMMIT, 3));
        assertEquals(5, b.acks().acked.size(), "the three of PREPARE 2, then the one acked after it and the new one");
        assertEquals(ids(sent.subList(5, 6)), b.acks().acked.subList(3, 4));
        assertEquals(1, b.bolt().inits);
        assertEquals(0, b.bolt().rollbacks, "no rollback");
        assertTrue(a.acks().acked.size() == 2 && a.acks().failed.isEmpty(), "A acked the first commit's tuples only");

        // What the store holds now is exactly every tuple counted once: a relaunched instance reads it.
        Instance relaunched = instance();
        relaunched.executor().execute(checkpoint(Action.INITSTATE, 3));
        assertEquals(Map.of("x", 4L, "y", 2L, "z", 1L), contents(relaunched.bolt().counts));
    }

    @Test
    void withoutAWayToBuildTheStoresStateTheNewInstanceIsLeftWaitingForStormsInitState() {
        Instance a = instance();
        a.executor().execute(checkpoint(Action.INITSTATE, 0));
        a.executor().execute(data("x"));
        StatefulBoltSnapshot s = access().capture(a.executor());
        Instance b = instance();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                                               () -> access().restore(b.executor(), s, context(), null));
        assertTrue(e.getMessage().contains("provider"), e.getMessage());
        assertEquals(0, b.bolt().inits);
        b.executor().execute(checkpoint(Action.INITSTATE, 0));
        assertEquals(1, b.bolt().inits, "Storm's INITSTATE still initialises it");
    }
}
