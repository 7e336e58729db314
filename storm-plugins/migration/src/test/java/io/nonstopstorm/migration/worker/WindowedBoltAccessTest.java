package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.nonstopstorm.migration.state.WindowSnapshot;
import io.nonstopstorm.migration.worker.StormTestParts.Acks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.serialization.SerializationFactory;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.WindowedBoltExecutor;
import org.apache.storm.topology.base.BaseWindowedBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;
import org.apache.storm.windowing.TupleWindow;
import org.junit.jupiter.api.Test;

/** Against Storm's own WindowedBoltExecutor and WindowManager: windows fired across a handover. */
class WindowedBoltAccessTest {
    private static final int SPOUT = 1;
    private static final int WINDOW = 2;
    private static final Map<String, Object> CONF = Utils.readDefaultConfig();

    /** One fired window as the bolt saw it: its numbers, the new ones and the expired ones. */
    record Fired(List<Long> all, List<Long> fresh, List<Long> expired) {
    }

    /** Records every window it is given. */
    static final class Recorder extends BaseWindowedBolt {
        final List<Fired> fired = new ArrayList<>();

        @Override
        public void execute(TupleWindow w) {
            fired.add(new Fired(numbers(w.get()), numbers(w.getNew()), numbers(w.getExpired())));
        }

        private static List<Long> numbers(List<Tuple> ts) {
            return ts.stream().map(t -> t.getLong(0)).toList();
        }
    }

    private static final StormTopology TOPOLOGY;

    static {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new StormTestParts.NoSpout("n"));
        b.setBolt("window", new Recorder().withWindow(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2)))
            .shuffleGrouping("numbers");
        TOPOLOGY = b.createTopology();
    }

    private static final TopologyContext CONTEXT = newContext();
    private static final Kryo KRYO = SerializationFactory.getKryo(CONF);

    private static TopologyContext context() {
        return CONTEXT;
    }

    private static TopologyContext newContext() {
        return StormTestParts.context(TOPOLOGY, CONF, Map.of(SPOUT, "numbers", WINDOW, "window"),
                                      Map.of("numbers", Map.of("default", new Fields("n")), "window", Map.of()), WINDOW);
    }

    private record Instance(WindowedBoltExecutor executor, Recorder bolt, Acks acks) {
    }

    private static Instance instance(BaseWindowedBolt.Count length, BaseWindowedBolt.Count sliding) {
        Recorder bolt = new Recorder();
        bolt.withWindow(length, sliding);
        return prepared(bolt);
    }

    private static Instance prepared(Recorder bolt) {
        WindowedBoltExecutor e = new WindowedBoltExecutor(bolt);
        Map<String, Object> conf = new HashMap<>(CONF);
        conf.putAll(bolt.getComponentConfiguration());
        Acks acks = new Acks();
        e.prepare(conf, context(), new OutputCollector(acks));
        return new Instance(e, bolt, acks);
    }

    /** Number n, anchored on root n with an ack value the executor XORed in (as an anchored emit would). */
    private static TupleImpl number(long n) {
        TupleImpl t = new TupleImpl(context(), new Values(n), "numbers", SPOUT, "default",
                                    MessageId.makeId(Map.of(n, n * 31)));
        t.updateAckVal(n * 1009);
        return t;
    }

    private static Map<Long, Long> ackOf(long n) {
        return Map.of(n, (n * 31) ^ (n * 1009));
    }

    private static WindowedBoltAccess access() {
        return WindowedBoltAccess.THIS_STORM.reader().orElseThrow();
    }

    /** Through the topology's Kryo, as the snapshot travels. */
    private static Object overTheWire(Object wire) {
        Output out = new Output(256, -1);
        KRYO.writeClassAndObject(out, wire);
        return KRYO.readClassAndObject(new Input(out.toBytes()));
    }

    @Test
    void thisStormsWindowedBoltExecutorIsTheOneTheAccessReads() {
        assertEquals(Optional.empty(), WindowedBoltAccess.THIS_STORM.why());
    }

    /**
     * A sliding window (length 5, sliding 2) and a tumbling one (length 4, sliding 4), handed over at every
     * point of their cycle: the windows fired by the old then the new instance are exactly those of one
     * instance that saw every number, and each tuple is acked once, when it leaves the window.
     */
    @Test
    void everyWindowFiresOnceWithTheRightTuplesAcrossAHandover() {
        int[][] windows = {{5, 2}, {4, 4}, {3, 1}};
        for (int[] w : windows) {
            BaseWindowedBolt.Count length = BaseWindowedBolt.Count.of(w[0]);
            BaseWindowedBolt.Count sliding = BaseWindowedBolt.Count.of(w[1]);
            Instance reference = instance(length, sliding);
            for (long n = 1; n <= 40; n++) {
                reference.executor().execute(number(n));
            }
            for (int at = 0; at <= 40; at++) {
                Instance a = instance(length, sliding);
                Instance b = instance(length, sliding);
                for (long n = 1; n <= at; n++) {
                    a.executor().execute(number(n));
                }
                WindowSnapshot s = WindowSnapshot.fromWire(overTheWire(access().capture(a.executor()).toWire()));
                access().restore(b.executor(), s, context());
                for (long n = at + 1; n <= 40; n++) {
                    b.executor().execute(number(n));
                }
                String where = "window " + w[0] + "/" + w[1] + ", handed over after " + at;
                List<Fired> fired = new ArrayList<>(a.bolt().fired);
                fired.addAll(b.bolt().fired);
                assertEquals(reference.bolt().fired, fired, where);
                List<Map<Long, Long>> acked = new ArrayList<>(a.acks().acked);
                acked.addAll(b.acks().acked);
                assertEquals(reference.acks().acked, acked, where);
                assertTrue(a.acks().failed.isEmpty() && b.acks().failed.isEmpty(), where);
            }
        }
    }

    @Test
    void theWindowsAreTheDefinitionsOwn() {
        // The reference above is Storm's own; this pins what it is, so a change in Storm shows here.
        Instance r = instance(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2));
        for (long n = 1; n <= 8; n++) {
            r.executor().execute(number(n));
        }
        assertEquals(List.of(new Fired(List.of(1L, 2L), List.of(1L, 2L), List.of()),
                             new Fired(List.of(1L, 2L, 3L, 4L), List.of(3L, 4L), List.of()),
                             new Fired(List.of(2L, 3L, 4L, 5L, 6L), List.of(5L, 6L), List.of(1L)),
                             new Fired(List.of(4L, 5L, 6L, 7L, 8L), List.of(7L, 8L), List.of(2L, 3L))),
                     r.bolt().fired);
        assertEquals(List.of(ackOf(1), ackOf(2), ackOf(3)), r.acks().acked);
    }

    @Test
    void readingTheOldInstanceChangesNothingThere() {
        Instance a = instance(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2));
        Instance reference = instance(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2));
        for (long n = 1; n <= 13; n++) {
            a.executor().execute(number(n));
            reference.executor().execute(number(n));
            access().capture(a.executor());
        }
        assertEquals(reference.bolt().fired, a.bolt().fired);
        assertEquals(reference.acks().acked, a.acks().acked);
    }

    @Test
    void anInstanceWhoseWindowIsNotEmptyRefusesTheInstallAndKeepsItsWindow() {
        Instance a = instance(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2));
        a.executor().execute(number(1));
        WindowSnapshot s = access().capture(a.executor());
        Instance b = instance(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2));
        b.executor().execute(number(7));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                                               () -> access().restore(b.executor(), s, context()));
        assertTrue(e.getMessage().contains("already holds 1 events"), e.getMessage());
        b.executor().execute(number(8));
        assertEquals(List.of(new Fired(List.of(7L, 8L), List.of(7L, 8L), List.of())), b.bolt().fired);
    }

    @Test
    void timeBasedAndEventTimeWindowsAreNotHandedOverAndSaySo() {
        Recorder timed = new Recorder();
        timed.withWindow(BaseWindowedBolt.Duration.seconds(10), BaseWindowedBolt.Duration.seconds(5));
        Instance t = prepared(timed);
        try {
            assertFalse(access().handsOver(t.executor()));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> access().capture(t.executor()));
            assertTrue(e.getMessage().contains("time-based"), e.getMessage());
        } finally {
            t.executor().cleanup();   // stops its trigger's timer thread
        }

        Recorder eventTime = new Recorder();
        eventTime.withWindow(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2)).withTimestampField("n");
        WindowedBoltExecutor unprepared = new WindowedBoltExecutor(eventTime);
        assertFalse(access().handsOver(unprepared));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> access().capture(unprepared));
        assertTrue(e.getMessage().contains("event-time"), e.getMessage());

        assertFalse(access().handsOver(new Object()));
        assertTrue(access().handsOver(instance(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2)).executor()));
    }

    @Test
    void aStormWithoutAFieldItReadsHandsNothingOverAndNamesIt() {
        StormReflection.Loaded<WindowedBoltAccess> l = WindowedBoltAccess.load(name -> name.equals(WindowedBoltAccess.EVENT)
            ? Object.class : stormClass(name));
        assertNull(l.access());
        assertTrue(l.unavailable().contains("Object.<init>"), l.unavailable());
        StormReflection.Loaded<WindowedBoltAccess> noExecutor = WindowedBoltAccess.load(name -> name.equals(WindowedBoltAccess.EXECUTOR)
            ? Object.class : stormClass(name));
        assertTrue(noExecutor.unavailable().contains("windowManager"), noExecutor.unavailable());
    }

    private static Class<?> stormClass(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aMalformedSnapshotIsRefusedNamingThePart() {
        Instance a = instance(BaseWindowedBolt.Count.of(5), BaseWindowedBolt.Count.of(2));
        a.executor().execute(number(1));
        Map<String, Object> wire = access().capture(a.executor()).toWire();
        Map<String, Object> badFormat = new HashMap<>(wire);
        badFormat.put("format", 99);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> WindowSnapshot.fromWire(badFormat))
                       .getMessage().contains("format 99"));
        Map<String, Object> noTrigger = new HashMap<>(wire);
        noTrigger.remove("trigger_count");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> WindowSnapshot.fromWire(noTrigger))
                       .getMessage().contains("trigger_count is missing"));
        Map<String, Object> badEvent = new HashMap<>(wire);
        badEvent.put("events", List.of(List.of("x", 1L)));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> WindowSnapshot.fromWire(badEvent))
                       .getMessage().contains("an event has 2 fields"));
        assertEquals(access().capture(a.executor()), WindowSnapshot.fromWire(overTheWire(wire)));
    }
}
