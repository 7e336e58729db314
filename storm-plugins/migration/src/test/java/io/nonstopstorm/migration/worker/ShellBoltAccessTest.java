package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.storm.multilang.BoltMsg;
import org.apache.storm.multilang.ISerializer;
import org.apache.storm.multilang.ShellMsg;
import org.apache.storm.multilang.SpoutMsg;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.utils.ShellBoltMessageQueue;
import org.apache.storm.utils.ShellProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Against Storm's own ShellBolt, ShellProcess and pending-writes queue; the subprocess is a fake serializer that
 * answers what the bolt's queue gives it, in order, as a multilang subprocess would.
 */
class ShellBoltAccessTest {
    private final ShellBolt bolt = new ShellBolt("python3", "unused.py");
    private final FakeSubprocess sub = new FakeSubprocess();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    /** Answers snapshot and restore requests the way the suite's Python helper does; records what it was sent. */
    static final class FakeSubprocess implements ISerializer {
        final BlockingQueue<ShellMsg> out = new LinkedBlockingQueue<>();
        final List<BoltMsg> written = new ArrayList<>();
        volatile String state = "{\"the\": 3}";
        volatile boolean refuse;
        volatile boolean mute;

        void receive(BoltMsg m) {
            written.add(m);
            if (m.getStream().equals(ShellBolt.HEARTBEAT_STREAM_ID)) {
                ShellMsg sync = new ShellMsg();
                sync.setCommand("sync");
                out.add(sync);
                return;
            }
            if (mute || !m.getStream().startsWith("__nonstop_")) {
                return;
            }
            ShellMsg r = new ShellMsg();
            r.setId(m.getId());
            if (refuse) {
                r.setCommand("nonstop_failed");
                r.setMsg("KeyError: 'x'");
            } else if (m.getStream().equals(MultilangHandoff.SNAPSHOT_STREAM)) {
                r.setCommand("nonstop_snapshot");
                r.setMsg(state);
            } else {
                state = (String) m.getTuple().get(0);
                r.setCommand("nonstop_restored");
            }
            out.add(r);
        }

        @Override
        public ShellMsg readShellMsg() {
            try {
                return out.take();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void initialize(OutputStream processIn, InputStream processOut) {
        }

        @Override
        public Number connect(Map<String, Object> conf, TopologyContext context) {
            return 1;
        }

        @Override
        public void writeBoltMsg(BoltMsg msg) {
            receive(msg);
        }

        @Override
        public void writeSpoutMsg(SpoutMsg msg) {
        }

        @Override
        public void writeTaskIds(List<Integer> taskIds) {
        }
    }

    /** The bolt as prepare leaves it, with a reader and a writer thread like ShellBolt's own. */
    private ShellProcess prepared() throws Exception {
        ShellProcess p = new ShellProcess(new String[] {"python3"});
        p.serializer = sub;
        Field f = ShellBolt.class.getDeclaredField("process");
        f.setAccessible(true);
        f.set(bolt, p);
        Field q = ShellBolt.class.getDeclaredField("pendingWrites");
        q.setAccessible(true);
        ShellBoltMessageQueue queue = (ShellBoltMessageQueue) q.get(bolt);
        start(() -> {
            while (running) {
                try {
                    Object w = queue.poll(20, TimeUnit.MILLISECONDS);
                    if (w instanceof BoltMsg m) {
                        p.writeBoltMsg(m);
                    }
                } catch (Exception e) {
                    return;
                }
            }
        });
        start(() -> {
            while (running) {
                try {
                    p.readShellMsg();
                } catch (Exception e) {
                    return;
                }
            }
        });
        return p;
    }

    private void start(Runnable r) {
        Thread t = new Thread(r);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        running = false;
        threads.forEach(Thread::interrupt);
        for (Thread t : threads) {
            t.join(1000);
        }
    }

    private static ShellBoltAccess access() {
        return ShellBoltAccess.THIS_STORM.reader().orElseThrow(() -> new AssertionError(ShellBoltAccess.THIS_STORM.why()));
    }

    @Test
    void thisStormsShellBoltIsReadable() {
        assertTrue(ShellBoltAccess.THIS_STORM.why().isEmpty(), () -> ShellBoltAccess.THIS_STORM.why().get());
        assertTrue(access().wraps(bolt));
        assertTrue(!access().wraps(new Object()));
    }

    @Test
    void aStormWithoutTheFieldsIsReportedAndNothingIsHandedOver() {
        // A ShellBolt whose pending writes are of another type than the queue this class drives.
        Function<String, Class<?>> classes = name -> {
            try {
                return name.equals(ShellBoltAccess.QUEUE) ? java.util.Queue.class : Class.forName(name);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        };
        StormReflection.Loaded<ShellBoltAccess> loaded = ShellBoltAccess.load(classes);
        assertEquals(null, loaded.access());
        assertTrue(loaded.unavailable().contains("ShellBolt.pendingWrites is a"), loaded.unavailable());
    }

    /**
     * The bolt's reader is already waiting inside Storm's serializer when the wrapper goes in (as in a worker, where
     * prepare started it): the ping attach sends makes that call return, so the replies after it pass the wrapper.
     */
    @Test
    void theSnapshotIsTheSubprocessesAnswerWrittenBehindTheTuplesBeforeIt() throws Exception {
        ShellProcess p = prepared();
        BoltMsg earlier = new BoltMsg();
        earlier.setId("t1");
        earlier.setStream("default");
        earlier.setTuple(List.of("the"));
        Field q = ShellBolt.class.getDeclaredField("pendingWrites");
        q.setAccessible(true);
        ((ShellBoltMessageQueue) q.get(bolt)).putBoltMsg(earlier);

        MultilangHandoff h = new MultilangHandoff(access().attach(bolt), 5000);
        assertInstanceOf(MultilangReplies.class, p.serializer);
        assertEquals("{\"the\": 3}", h.snapshotState());
        assertEquals("t1", sub.written.get(0).getId(), "the request is written after the tuple queued before it");
        assertEquals(ShellBolt.HEARTBEAT_STREAM_ID, sub.written.get(1).getStream(), "attach pings the subprocess");
        BoltMsg request = sub.written.get(2);
        assertEquals(MultilangHandoff.SNAPSHOT_STREAM, request.getStream());
        assertEquals(-1, request.getTask());
        assertEquals(List.of(), request.getTuple());

        h.restoreState("{\"a\": 1}");
        assertEquals("{\"a\": 1}", sub.state);
        assertEquals(List.of("{\"a\": 1}"), sub.written.get(3).getTuple());
    }

    @Test
    void attachingTwiceKeepsOneWrapper() throws Exception {
        ShellProcess p = prepared();
        access().attach(bolt);
        ISerializer first = p.serializer;
        access().attach(bolt);
        assertSame(first, p.serializer);
    }

    @Test
    void aRefusalOrNoAnswerInTimeFailsTheSnapshotWithTheReason() throws Exception {
        ShellProcess p = prepared();
        MultilangHandoff h = new MultilangHandoff(access().attach(bolt), 200);
        sub.refuse = true;
        IllegalStateException refused = assertThrows(IllegalStateException.class, h::snapshotState);
        assertTrue(refused.getMessage().contains("KeyError"), refused.getMessage());
        sub.refuse = false;
        sub.mute = true;
        IllegalStateException late = assertThrows(IllegalStateException.class, h::snapshotState);
        assertTrue(late.getMessage().contains("did not answer __nonstop_snapshot within 200 ms"), late.getMessage());
        assertThrows(IllegalStateException.class, () -> h.restoreState("{}"));
    }

    @Test
    void aBoltNotPreparedHasNoChannel() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> access().attach(bolt));
        assertTrue(e.getMessage().contains("no subprocess"), e.getMessage());
    }

    @Test
    void anUnexpectedAnswerIsAFailure() {
        ShellMsg m = new ShellMsg();
        m.setCommand("nonstop_snapshot");
        assertThrows(IllegalStateException.class, () -> MultilangHandoff.answer(m, "nonstop_snapshot"));
        m.setCommand("sync");
        assertThrows(IllegalStateException.class, () -> MultilangHandoff.answer(m, "nonstop_restored"));
        assertTrue(MultilangHandoff.optsIn(true) && MultilangHandoff.optsIn("true"));
        assertTrue(!MultilangHandoff.optsIn(null) && !MultilangHandoff.optsIn(false));
    }
}
