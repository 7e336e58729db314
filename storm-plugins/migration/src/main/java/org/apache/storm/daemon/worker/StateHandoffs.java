package org.apache.storm.daemon.worker;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.KryoBufferOverflowException;
import com.esotericsoftware.kryo.io.Output;
import io.nonstopstorm.migration.state.HandoffGate;
import io.nonstopstorm.migration.state.HandoffLimits;
import io.nonstopstorm.migration.state.HandoffMessage;
import io.nonstopstorm.migration.state.HandoffState;
import io.nonstopstorm.migration.state.HeapRoom;
import io.nonstopstorm.migration.state.KeptSnapshot;
import io.nonstopstorm.migration.state.SnapshotChunk;
import io.nonstopstorm.migration.state.SnapshotChunker;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot;
import io.nonstopstorm.migration.state.WindowSnapshot;
import io.nonstopstorm.migration.worker.LoggedTask;
import io.nonstopstorm.migration.worker.MigrationEventLog;
import io.nonstopstorm.migration.worker.MultilangHandoff;
import io.nonstopstorm.migration.worker.ShellBoltAccess;
import io.nonstopstorm.migration.worker.StatefulBoltAccess;
import io.nonstopstorm.migration.worker.TupleSizeEstimate;
import io.nonstopstorm.migration.worker.WindowedBoltAccess;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.storm.Constants;
import org.apache.storm.daemon.StormCommon;
import org.apache.storm.daemon.Task;
import org.apache.storm.executor.Executor;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.serialization.KryoTupleSerializer;
import org.apache.storm.serialization.SerializationFactory;
import org.apache.storm.state.State;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.utils.JCQueue;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * State handoff for bolts that implement {@link HandoffState}, for Storm's stateful bolts with the
 * in-memory state provider ({@link StatefulBoltAccess}), and for multilang bolts that opt in
 * ({@link MultilangHandoff}), applied to Storm (docs/state-handoff.md). Everything that touches a bolt runs on its executor's own thread, inside
 * {@code BoltExecutor.tupleActionFn}: the source's barrier, its snapshot and the sending of the chunks;
 * the target's gate, the install and the release of the held tuples. The messages are tuples on the
 * moving component's {@code __system} stream ({@link HandoffMessage}), so they travel the workers' own
 * ordered connections: the chunks and every tuple the old instance forwards after them reach the new
 * instance in that order.
 *
 * <p>Source: at the routing switch a barrier goes into the old instance's queue. At the barrier it takes
 * the snapshot, sends it, and from then on forwards every tuple it still receives to the new home
 * instead of executing it, until the lazy kill stops it. A snapshot over the limit or one that cannot be
 * sent leaves the old instance processing with its state (the behaviour without handoff).
 *
 * <p>Target: a started executor's tasks get a closed gate before their first tuple; a task whose bolt
 * does not opt in opens it at its first tuple. The gate opens when the snapshot is installed, or empty
 * at its deadline. A snapshot this worker's heap cannot take is declined at its first chunk ({@link HeapRoom}):
 * the gate opens without it and the source is told, so it stops resending.
 */
public final class StateHandoffs {
    private static final Logger LOG = LoggerFactory.getLogger(StateHandoffs.class);
    /** The stream the messages travel on: every component has it, nothing subscribes to it. */
    static final String STREAM = StormCommon.SYSTEM_STREAM_ID;
    private static final long SEND_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** A waiting executor looks at its deadline at least this often (an arrival wakes it at once). */
    private static final long AWAIT_POLL_MS = 100;
    /** Longest a resend of a kept copy waits out back pressure (it runs on the runtime's shared timer). */
    private static final long RESEND_SEND_MS = 1000;
    /**
     * Test only: the target waits this long before installing the first attempt of a snapshot, so a test can
     * kill its worker between the barrier and the install (F1).
     */
    public static final String TEST_INSTALL_DELAY_MS = "nonstop.migration.test.handoff.install.delay.ms";
    /** Test only: the free heap, in bytes, this worker offers a handed-over snapshot (the real heap otherwise). */
    public static final String TEST_HEAP_FREE_BYTES = "nonstop.migration.test.handoff.heap.free.bytes";

    private static volatile StateHandoffs active;
    /** Tasks of this JVM whose bolt opts in (registered at the executor's init). */
    private static final Map<Integer, Boolean> OPT_IN = new ConcurrentHashMap<>();
    /** Shell bolts of this JVM whose component opts in ({@link MultilangHandoff#OPT_IN}), by instance. */
    private static final Map<Object, ShellBoltAccess.Channel> SHELL_OPT_IN =
        Collections.synchronizedMap(new WeakHashMap<>());
    /**
     * Storm stateful executors of this JVM, by instance: how to build their state through the topology's
     * provider, as their prepare did (a persistent provider's new instance gets a state built at the install).
     */
    private static final Map<Object, Supplier<State>> PROVIDER_STATES = Collections.synchronizedMap(new WeakHashMap<>());
    /** Why stateful bolts of this JVM are not handed over, each reason logged once. */
    private static final Set<String> NOT_HANDED_OVER = ConcurrentHashMap.newKeySet();

    private final WorkerState ws;
    private final HandoffLimits limits;
    private final MigrationEventLog events;
    private final LongSupplier clock;
    private final ScheduledExecutorService scheduler;
    private final HeapRoom.Heap heap;
    /** Target: the gate of each task whose new instance waits for its state. */
    private final Map<Integer, HandoffGate<TupleImpl>> gates = new ConcurrentHashMap<>();
    /** Source: tasks whose old instance handed its state over and now forwards what it receives. */
    private final Map<Integer, Long> handedOff = new ConcurrentHashMap<>();
    /** Source: tasks with a barrier placed and not reached yet (a barrier is valid only where it was placed). */
    private final Set<Integer> barriers = ConcurrentHashMap.newKeySet();
    /**
     * Target: a snapshot assembled on the receive path (or the reason it was rejected), for the task's own
     * thread to install before its next tuple.
     */
    private final Map<Integer, Arrival> arrived = new ConcurrentHashMap<>();
    /** Target: tasks whose gate went past its early buffer's bound (reported once per gate). */
    private final Set<Integer> congested = ConcurrentHashMap.newKeySet();
    /** Source: the copy of each handed-over snapshot, kept until the target confirms its install (F1). */
    private final Map<Integer, KeptSnapshot> kept = new ConcurrentHashMap<>();
    /** Target: the chunk that completed the snapshot each task installed here (a resend of it is answered again). */
    private final Map<Integer, HandoffMessage.Chunk> installedHere = new ConcurrentHashMap<>();
    /** Target: the snapshot each task declined here, and why (its later chunks are dropped, a resend answered). */
    private final Map<Integer, DeclinedHere> declinedHere = new ConcurrentHashMap<>();
    /**
     * Target: one empty file per task whose gate waits, named by the task, under the slot's own directory
     * (same topology and port across the worker's relaunches): a relaunched worker closes their gates again.
     */
    private final Path waiting;
    private final ThreadLocal<Kryo> kryo;
    private final ThreadLocal<KryoTupleSerializer> serializer;
    /** The state sizes this worker publishes for the scheduler (F2 before the switch), or null when off. */
    private final StateSizeMeasurements sizes;

    /**
     * A whole snapshot for a waiting gate, with the chunk that completed it (plan version, attempt, where to
     * confirm), or why none will be used (rejected, or the source kept it; then {@code from} is null).
     */
    private record Arrival(HandoffGate<TupleImpl> gate, byte[] snapshot, String withoutState, HandoffMessage.Chunk from) {
    }

    /** A snapshot declined here: the chunk it was declined at (which move, where to answer) and why. */
    private record DeclinedHere(HandoffMessage.Chunk at, String reason) {
    }

    StateHandoffs(WorkerState ws, HandoffLimits limits, MigrationEventLog events, LongSupplier clock,
                  ScheduledExecutorService scheduler) {
        this(ws, limits, events, clock, scheduler, heapOfThisWorker());
    }

    private static HeapRoom.Heap heapOfThisWorker() {
        Long free = Long.getLong(TEST_HEAP_FREE_BYTES);
        if (free == null) {
            return HeapRoom.THIS_JVM;
        }
        return new HeapRoom.Heap() {
            @Override
            public long maxBytes() {
                return free;
            }

            @Override
            public long usedBytes() {
                return 0;
            }
        };
    }

    /** @param heap the heap a snapshot must fit in (this JVM's, but for tests) */
    StateHandoffs(WorkerState ws, HandoffLimits limits, MigrationEventLog events, LongSupplier clock,
                  ScheduledExecutorService scheduler, HeapRoom.Heap heap) {
        this.ws = ws;
        this.limits = limits;
        this.events = events;
        this.clock = clock;
        this.scheduler = scheduler;
        this.heap = heap;
        this.kryo = ThreadLocal.withInitial(() -> SerializationFactory.getKryo(ws.getTopologyConf()));
        this.serializer = ThreadLocal.withInitial(() -> new KryoTupleSerializer(ws.getTopologyConf(),
                                                                                  ws.getWorkerTopologyContext()));
        this.waiting = Path.of(org.apache.storm.utils.ConfigUtils.absoluteStormLocalDir(ws.conf), "nonstop-handoff",
                               ws.topologyId + "-" + ws.port);
        this.sizes = StateSizeMeasurements.of(ws.getTopologyConf(), limits.maxBytes(), kryo, clock);
    }

    /** Starts measuring this worker's opting-in task states for the scheduler (when the topology's conf asks). */
    void startSizeMeasurements() {
        if (sizes != null) {
            sizes.start(scheduler, () -> OPT_IN.keySet().stream().filter(ws.taskToExecutorQueue::containsKey).toList());
        }
    }

    /** Makes {@code h} the one the woven executors call (null: none, every tuple goes through untouched). */
    static void activate(StateHandoffs h) {
        if (h != null) {
            ShellBoltAccess.THIS_STORM.why().ifPresent(why -> LOG.warn("nonstop: multilang bolts move without their "
                                                                    + "state: {}", why));
        }
        active = h;
    }

    HandoffLimits limits() {
        return limits;
    }

    // ------------------------------------------------------------------ entry points (agent advice)

    /** End of BoltExecutor.init: remembers which of its tasks opt in. */
    public static void onBoltInit(List<Task> idToTask, Map<String, Object> topoConf) {
        for (Task t : idToTask) {
            if (t != null) {
                attachShell(t);
                attachProvider(t, topoConf);
                if (handoffOf(t.getTaskObject(), null) != null) {
                    OPT_IN.put(t.getTaskId(), Boolean.TRUE);
                } else {
                    OPT_IN.remove(t.getTaskId());
                }
            }
        }
    }

    /**
     * A Storm stateful executor: how its state is built (the conf its prepare got, the task's context), and, when
     * it is not handed over, why (each reason once: such moves cost Storm's rollback and replay, as before).
     */
    private static void attachProvider(Task t, Map<String, Object> topoConf) {
        Object bolt = t.getTaskObject();
        Optional<StatefulBoltAccess> access = StatefulBoltAccess.THIS_STORM.reader();
        if (access.isEmpty() || !access.get().wraps(bolt)) {
            return;
        }
        TopologyContext context = t.getUserContext();
        PROVIDER_STATES.put(bolt, () -> StatefulBoltAccess.providerState(context, topoConf));
        access.get().refusal(bolt).ifPresent(why -> {
            if (NOT_HANDED_OVER.add(why)) {
                LOG.warn("nonstop: stateful bolt {} is not handed over on a live move (Storm's recovery rolls "
                         + "back and replays instead): {}", context.getThisComponentId(), why);
            }
        });
    }

    /**
     * A prepared shell bolt whose component conf opts in gets the channel its handoff talks through; one that
     * does not is left exactly as it was (Storm's own serializer, no requests ever written to it).
     */
    private static void attachShell(Task t) {
        Object bolt = t.getTaskObject();
        Optional<ShellBoltAccess> access = ShellBoltAccess.THIS_STORM.reader();
        if (access.isEmpty() || !access.get().wraps(bolt)) {
            return;
        }
        Object optIn;
        try {
            String json = t.getUserContext().getComponentCommon(t.getComponentId()).get_json_conf();
            optIn = json == null ? null : Utils.parseJson(json).get(MultilangHandoff.OPT_IN);
        } catch (RuntimeException e) {
            LOG.warn("nonstop: task {}: its component conf could not be read; its state is not handed over: {}",
                     t.getTaskId(), e.toString());
            return;
        }
        if (!MultilangHandoff.optsIn(optIn)) {
            return;
        }
        try {
            SHELL_OPT_IN.put(bolt, access.get().attach(bolt));
        } catch (RuntimeException e) {
            LOG.warn("nonstop: task {}: its shell bolt's state is not handed over: {}", t.getTaskId(), e.getMessage());
        }
    }

    /**
     * Start of BoltExecutor.tupleActionFn, on the executor's thread.
     *
     * @return true when the tuple was dealt with here (Storm's own handling is skipped)
     */
    public static boolean intercept(Executor executor, List<Task> idToTask, int idToTaskBase, int taskId,
                                    TupleImpl tuple) throws Exception {
        StateHandoffs h = active;
        if (h == null) {
            return false;
        }
        boolean message = STREAM.equals(tuple.getSourceStreamId()) && tuple.size() == 1
                          && HandoffMessage.isHandoff(tuple.getValue(0));
        if (!message && h.gates.isEmpty() && h.handedOff.isEmpty()) {
            StateSizeMeasurements sizes = h.sizes;
            if (sizes != null && sizes.anyDue() && sizes.takeDue(taskId)) {
                sizes.measure(taskId, handoffOf(idToTask.get(taskId - idToTaskBase).getTaskObject(), null));
            }
            return false;
        }
        Object bolt = idToTask.get(taskId - idToTaskBase).getTaskObject();
        return h.onTuple(executor, bolt, taskId, tuple, message);
    }

    /**
     * How a task's bolt is handed over: its own {@link HandoffState}, a shell bolt whose component opts in
     * through its subprocess ({@link MultilangHandoff}), Storm's count-windowed bolt executor through
     * {@link WindowedBoltAccess}, Storm's stateful bolt executor with the in-memory state through
     * {@link StatefulBoltAccess} (each when this Storm's executor is the one it reads), or null: not handed over.
     */
    static HandoffState<?> handoffOf(Object bolt, GeneralTopologyContext context) {
        if (bolt instanceof HandoffState<?> s) {
            return s;
        }
        ShellBoltAccess.Channel shell = bolt == null ? null : SHELL_OPT_IN.get(bolt);
        if (shell != null) {
            StateHandoffs h = active;
            return new MultilangHandoff(shell, (h == null ? HandoffLimits.DEFAULTS : h.limits).transferTimeoutMs());
        }
        Optional<WindowedBoltAccess> windows = WindowedBoltAccess.THIS_STORM.reader();
        if (windows.isPresent() && windows.get().handsOver(bolt)) {
            WindowedBoltAccess w = windows.get();
            return new ReaderHandoff(() -> w.capture(bolt).toWire(),
                                     snapshot -> w.restore(bolt, WindowSnapshot.fromWire(snapshot), context));
        }
        Optional<StatefulBoltAccess> access = StatefulBoltAccess.THIS_STORM.reader();
        if (access.isEmpty() || !access.get().handsOver(bolt)) {
            return null;
        }
        StatefulBoltAccess a = access.get();
        return new ReaderHandoff(() -> a.capture(bolt).toWire(),
                                 snapshot -> a.restore(bolt, StatefulBoltSnapshot.fromWire(snapshot), context,
                                                       PROVIDER_STATES.get(bolt)));
    }

    /**
     * The handoff of a Storm executor read through one of the suite's readers of Storm's fields (windowed or
     * stateful): the snapshot is the reader's wire form ({@link WindowSnapshot}, {@link StatefulBoltSnapshot}).
     */
    private record ReaderHandoff(Supplier<Object> capture, Consumer<Object> install) implements HandoffState<Object> {
        @Override
        public Object snapshotState() {
            return capture.get();
        }

        @Override
        public void restoreState(Object snapshot) {
            install.accept(snapshot);
        }
    }

    // ------------------------------------------------------------------ the runtime's calls

    /**
     * Target: executors about to start; each task of a bolt gets a closed gate until {@code deadlineMs},
     * when a wake-up looks at it even if no tuple arrives.
     */
    void expect(List<Integer> tasks, long deadlineMs) {
        for (int t : tasks) {
            String component = ws.getTaskToComponent().get(t);
            if (component == null || !ws.getTopology().get_bolts().containsKey(component)) {
                continue;
            }
            KeptSnapshot stale = kept.remove(t);
            if (stale != null && stale.drop("the task runs here again")) {
                LOG.warn("nonstop: task {} runs here again; its unconfirmed copy of plan v{} is dropped", t,
                         stale.planVersion());
            }
            installedHere.remove(t);
            declinedHere.remove(t);
            gates.put(t, new HandoffGate<>(limits, x -> TupleSizeEstimate.of(x.getValues()), deadlineMs));
            congested.remove(t);
            markWaiting(t);
            long delay = Math.max(1, deadlineMs - clock.getAsLong());
            try {
                scheduler.schedule(LoggedTask.of(LOG, "handoff deadline of task " + t, () -> wake(t)), delay,
                                   TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                LOG.debug("nonstop: worker shutting down; no handoff deadline for task {}", t);
            }
        }
    }

    /**
     * Target, on Netty's receive path before the batch reaches the executors' queues: chunks for a task
     * whose gate waits are taken out and assembled here. So a snapshot completes even while the executor,
     * its early buffer full, takes no tuples from its queue (which then fills, and Storm's back pressure
     * holds the senders); tuples the old instance forwards after its chunks still come later on the same
     * connection, so they reach the queue after the snapshot is whole.
     */
    void takeChunks(ArrayList<AddressedTuple> batch) {
        if (!gates.isEmpty() || !kept.isEmpty() || !installedHere.isEmpty() || !declinedHere.isEmpty()) {
            batch.removeIf(this::tookChunk);
        }
    }

    private boolean tookChunk(AddressedTuple at) {
        if (!(at.getTuple() instanceof TupleImpl t) || !STREAM.equals(t.getSourceStreamId())
            || t.size() != 1 || !HandoffMessage.isHandoff(t.getValue(0))) {
            return false;
        }
        HandoffMessage m;
        try {
            m = HandoffMessage.decode(t.getValue(0));
        } catch (IllegalArgumentException e) {
            return false;   // the executor's path logs and drops it
        }
        if (m instanceof HandoffMessage.Installed i) {
            confirmed(i);
            return true;
        }
        if (m instanceof HandoffMessage.Declined d) {
            declinedThere(d);
            return true;
        }
        if (m instanceof HandoffMessage.Chunk c && declinedBefore(at.dest, c, 0)) {
            return true;
        }
        HandoffGate<TupleImpl> gate = gates.get(at.dest);
        if (gate == null) {
            // A resend of a snapshot this worker installed (its confirmation was lost or late): answer again.
            return m instanceof HandoffMessage.Chunk c && answerAgain(at.dest, c);
        }
        if (m instanceof HandoffMessage.Abort abort) {
            // The old instance keeps the state: waiting for it until the deadline would only hold E's tuples.
            arrive(at.dest, new Arrival(gate, null, keptBecause(abort), null));
            return true;
        }
        if (!(m instanceof HandoffMessage.Chunk c)) {
            return false;
        }
        Optional<String> noRoom = declineIfNoRoom(at.dest, gate, c, 0);
        if (noRoom.isPresent()) {
            // Opened as an abort opens it: the task starts without the state, the worker stays up.
            arrive(at.dest, new Arrival(gate, null, noRoom.get(), null));
            return true;
        }
        Optional<byte[]> whole;
        try {
            whole = gate.chunk(c.planVersion(), c.chunk());
        } catch (IllegalStateException e) {
            LOG.warn("nonstop: task {}: {}", at.dest, e.getMessage());
            return true;
        } catch (IllegalArgumentException e) {
            arrive(at.dest, new Arrival(gate, null, "snapshot rejected: " + e.getMessage(), null));
            return true;
        }
        whole.ifPresent(bytes -> arrive(at.dest, new Arrival(gate, bytes, null, c)));
        return true;
    }

    /** Target: a chunk for a task with no waiting gate; true (taken) when it is of the snapshot installed here. */
    private boolean answerAgain(int taskId, HandoffMessage.Chunk c) {
        HandoffMessage.Chunk done = installedHere.get(taskId);
        // A chunk of another snapshot (e.g. one this worker, now the source, sends out and the target, not
        // switched yet, sends back) must pass: answering it would drop the copy no one installed.
        if (done == null || !done.ofSameSnapshotAs(c)) {
            return false;
        }
        if (c.chunk().index() == 0) {
            sendInstalled(taskId, done.planVersion(), done.attempt(), c.replyTo(), 0);
        }
        return true;
    }

    /**
     * Target: whether {@code c} is of the snapshot this task declined here; then it is dropped without a word,
     * and a resend's first chunk is answered with the refusal again (the first answer may have been lost).
     */
    private boolean declinedBefore(int taskId, HandoffMessage.Chunk c, long waitMs) {
        DeclinedHere d = declinedHere.get(taskId);
        if (d == null || !d.at().ofSameSnapshotAs(c)) {
            return false;
        }
        if (c.chunk().index() == 0) {
            LOG.debug("nonstop: task {}: the source resent the snapshot of plan v{} it declined; told again",
                      taskId, c.planVersion());
            sendDeclined(taskId, d, waitMs);
        }
        return true;
    }

    /**
     * Target: a chunk that would start assembling a snapshot (never one in the middle of an assembly): when this
     * worker's heap cannot take the whole of it, the snapshot is declined and the source told. The caller opens
     * the gate without the state.
     *
     * @return why it was declined; empty when it is taken on as before
     */
    private Optional<String> declineIfNoRoom(int taskId, HandoffGate<TupleImpl> gate, HandoffMessage.Chunk c,
                                             long waitMs) {
        if (!gate.startsSnapshot(c.planVersion())) {
            return Optional.empty();
        }
        Optional<String> why = HeapRoom.refusal(c.chunk().totalBytes(), heap);
        why.ifPresent(reason -> {
            DeclinedHere d = new DeclinedHere(c, reason);
            declinedHere.put(taskId, d);
            LOG.warn("nonstop: task {} declines its handed-over state (plan v{}, attempt {}) and starts without it: {}",
                     taskId, c.planVersion(), c.attempt(), reason);
            sendDeclined(taskId, d, waitMs);
        });
        return why;
    }

    private void sendDeclined(int taskId, DeclinedHere d, long waitMs) {
        HandoffMessage.Chunk at = d.at();
        replyToSource(taskId, at.replyTo(), HandoffMessage.declined(at.planVersion(), taskId, at.attempt(), d.reason()),
                      "the refusal", waitMs);
    }

    /** Source: the target declined the snapshot (its heap); the kept copy is released and not sent again. */
    private void declinedThere(HandoffMessage.Declined d) {
        KeptSnapshot k = kept.get(d.task());
        if (k == null) {
            LOG.debug("nonstop: task {}: snapshot of plan v{} declined again; nothing kept", d.task(), d.planVersion());
            return;
        }
        KeptSnapshot.Confirmation c = k.declined(d.planVersion(), d.reason());
        if (c instanceof KeptSnapshot.Declined) {
            kept.remove(d.task(), k);
            LOG.warn("nonstop: task {}: its new home could not take the state of plan v{} (attempt {}) and started "
                     + "without it; the copy here is released, the state is lost: {}", d.task(), d.planVersion(),
                     d.attempt(), d.reason());
            events.append("handoff_declined", Map.of("port", ws.port, "task", d.task(), "plan_version", d.planVersion(),
                                                     "attempt", d.attempt(), "reason", d.reason()));
        } else if (c instanceof KeptSnapshot.Ignored ignored) {
            LOG.debug("nonstop: task {}: refusal ignored: {}", d.task(), ignored.why());
        }
    }

    /** Source, on the receive path: the target confirmed an install; the kept copy is dropped. */
    private void confirmed(HandoffMessage.Installed i) {
        KeptSnapshot k = kept.get(i.task());
        if (k == null) {
            LOG.debug("nonstop: task {}: install of plan v{} confirmed again; nothing kept", i.task(), i.planVersion());
            return;
        }
        KeptSnapshot.Confirmation c = k.confirm(i.planVersion(), clock.getAsLong());
        if (c instanceof KeptSnapshot.Confirmed done) {
            kept.remove(i.task(), k);
            LOG.info("nonstop: task {}: its new home installed the state of plan v{} (attempt {} of {}, {} ms after the "
                     + "first send); the copy here is released", i.task(), i.planVersion(), i.attempt(), done.attempts(),
                     done.tookMs());
            events.append("handoff_confirmed", Map.of("port", ws.port, "task", i.task(), "plan_version", i.planVersion(),
                                                      "attempt", i.attempt(), "attempts", done.attempts(),
                                                      "took_ms", done.tookMs()));
        } else if (c instanceof KeptSnapshot.Ignored ignored) {
            LOG.debug("nonstop: task {}: confirmation ignored: {}", i.task(), ignored.why());
        }
    }

    private static String keptBecause(HandoffMessage.Abort a) {
        return "the old instance kept the state of plan v" + a.planVersion() + ": " + a.reason();
    }

    /** Hands an arrival to the task's thread: it may be waiting on the gate, or idle (a wake-up in its queue). */
    private void arrive(int taskId, Arrival a) {
        arrived.put(taskId, a);
        synchronized (a.gate()) {
            a.gate().notifyAll();
        }
        JCQueue queue = ws.taskToExecutorQueue.get(taskId);
        AddressedTuple w = new AddressedTuple(taskId, message(taskId, HandoffMessage.wake()));
        if (queue != null && !queue.tryPublish(w) && !queue.tryPublishToOverflow(w)) {
            LOG.debug("nonstop: no room to wake task {}; its next tuple installs its state", taskId);
        }
    }

    /** Source: after the routing switch, a barrier behind everything queued at each opting-in task. */
    int barrier(List<Integer> tasks, JCQueue queue, long planVersion) {
        int placed = 0;
        for (int t : tasks) {
            if (queue == null || !OPT_IN.containsKey(t)) {
                continue;
            }
            AddressedTuple b = new AddressedTuple(t, message(t, HandoffMessage.barrier(planVersion)));
            barriers.add(t);
            if (queue.tryPublish(b) || queue.tryPublishToOverflow(b)) {
                placed++;
            } else {
                barriers.remove(t);
                LOG.warn("nonstop: no room for the handoff barrier of task {}; it moves without its state", t);
            }
        }
        return placed;
    }

    /** The old instance of these tasks stopped: nothing more to forward from it. */
    void stopped(List<Integer> tasks) {
        tasks.forEach(t -> {
            handedOff.remove(t);
            barriers.remove(t);
            arrived.remove(t);
            if (sizes != null) {
                sizes.forget(t);
            }
        });
    }

    // ------------------------------------------------------------------ on the executor's thread

    private boolean onTuple(Executor executor, Object bolt, int taskId, TupleImpl tuple, boolean message)
        throws Exception {
        if (handedOff.containsKey(taskId)) {
            // The state is at the new home: so is this tuple, and so is a snapshot of a later move that found
            // this worker's routing not yet updated. Ticks and this instance's own signals stay here.
            boolean chunk = message && isChunk(tuple);
            if (chunk || (!message && !Constants.SYSTEM_COMPONENT_ID.equals(tuple.getSourceComponent()))) {
                forward(taskId, tuple);
            }
            return true;
        }
        if (message) {
            HandoffMessage m;
            try {
                m = HandoffMessage.decode(tuple.getValue(0));
            } catch (IllegalArgumentException e) {
                LOG.warn("nonstop: task {} dropped a malformed handoff message: {}", taskId, e.getMessage());
                return true;
            }
            if (m instanceof HandoffMessage.Barrier b) {
                if (barriers.remove(taskId)) {
                    HandoffState<?> s = handoffOf(bolt, ws.getWorkerTopologyContext());
                    if (s != null) {
                        handOver(executor, s, taskId, b.planVersion());
                    }
                } else {
                    // A barrier forwarded with the queue of an old instance stopped before reaching it (the
                    // lazy kill came first): no snapshot will come, so the new instance need not wait for one.
                    HandoffGate<TupleImpl> gate = gates.get(taskId);
                    if (gate != null) {
                        release(executor, taskId, gate,
                                gate.abandon("the old instance stopped before reaching its snapshot barrier"));
                    }
                }
            } else if (m instanceof HandoffMessage.Chunk c) {
                receive(executor, bolt, taskId, c);
            } else if (m instanceof HandoffMessage.Installed i) {
                confirmed(i);   // usually taken off the receive path
            } else if (m instanceof HandoffMessage.Declined d) {
                declinedThere(d);   // usually taken off the receive path
            } else if (m instanceof HandoffMessage.Abort a) {
                // Usually taken off the receive path; one that came before this worker started the new instance
                // was parked with its tuples and arrives here.
                HandoffGate<TupleImpl> gate = gates.get(taskId);
                if (gate != null && handoffOf(bolt, null) != null) {
                    LOG.warn("nonstop: task {}: {}", taskId, keptBecause(a));
                    release(executor, taskId, gate, gate.abandon(keptBecause(a)));
                } else {
                    LOG.debug("nonstop: task {}: no gate waits; ignored: {}", taskId, keptBecause(a));
                }
            } else {
                HandoffGate<TupleImpl> gate = gates.get(taskId);
                HandoffState<?> s = handoffOf(bolt, ws.getWorkerTopologyContext());
                if (gate != null && s != null) {
                    if (!installArrived(executor, s, taskId, gate)) {
                        release(executor, taskId, gate, gate.expire(clock.getAsLong()));
                    }
                } else if (gate != null) {
                    forget(taskId, gate);   // a bolt that does not opt in and saw no tuple until now
                }
            }
            return true;
        }
        HandoffGate<TupleImpl> gate = gates.get(taskId);
        if (gate == null) {
            return false;
        }
        HandoffState<?> s = handoffOf(bolt, ws.getWorkerTopologyContext());
        if (s == null) {
            forget(taskId, gate);
            return false;
        }
        if (installArrived(executor, s, taskId, gate)) {
            return false;   // the gate just opened: Storm handles this tuple as any other
        }
        release(executor, taskId, gate, gate.offer(tuple, clock.getAsLong()));
        if (gate.full()) {
            awaitOpening(executor, s, taskId, gate);
        }
        return true;
    }

    /**
     * Target, the early buffer full (F7): takes no more tuples until the snapshot is whole or the deadline
     * passes, so the queue fills and Storm's back pressure slows the senders rather than the gate opening
     * without the state or holding without bound.
     */
    private void awaitOpening(Executor executor, HandoffState<?> bolt, int taskId, HandoffGate<TupleImpl> gate)
        throws Exception {
        if (congested.add(taskId)) {
            LOG.warn("nonstop: task {} takes no tuples until its state arrives: {}", taskId, gate.fullBecause());
            events.append("handoff_congested", Map.of("port", ws.port, "task", taskId, "held", gate.held(),
                                                      "reason", gate.fullBecause()));
        }
        while (!gate.isOpen()) {
            if (installArrived(executor, bolt, taskId, gate)) {
                return;
            }
            long left = gate.deadlineMs() - clock.getAsLong();
            if (left <= 0) {
                release(executor, taskId, gate, gate.expire(clock.getAsLong()));
                return;
            }
            synchronized (gate) {
                if (!arrived.containsKey(taskId)) {
                    try {
                        gate.wait(Math.min(left, AWAIT_POLL_MS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();   // the executor is being shut down
                        return;
                    }
                }
            }
        }
    }

    /** Installs (or gives up on) a snapshot the receive path completed for this gate; true if the gate opened. */
    private boolean installArrived(Executor executor, HandoffState<?> bolt, int taskId, HandoffGate<TupleImpl> gate)
        throws Exception {
        Arrival a = arrived.get(taskId);
        if (a == null || !arrived.remove(taskId, a)) {
            return false;
        }
        if (a.gate() != gate) {
            return false;   // for a gate a newer move replaced
        }
        if (a.withoutState() != null) {
            LOG.warn("nonstop: task {}: {}", taskId, a.withoutState());
            release(executor, taskId, gate, gate.abandon(a.withoutState()));
        } else {
            install(executor, bolt, taskId, gate, a.snapshot(), a.from());
        }
        return gate.isOpen();
    }

    /**
     * Whether {@code t} is a piece of a handed-over snapshot. Its source switched before sending it, so the
     * worker it reached is the task's new home even when that worker has not started the executor yet.
     */
    static boolean isSnapshotChunk(AddressedTuple t) {
        return t.getTuple() instanceof TupleImpl ti && STREAM.equals(ti.getSourceStreamId()) && ti.size() == 1
               && HandoffMessage.isHandoff(ti.getValue(0)) && isChunk(ti);
    }

    private static boolean isChunk(TupleImpl tuple) {
        try {
            return HandoffMessage.decode(tuple.getValue(0)) instanceof HandoffMessage.Chunk;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Processes what the gate let through; once it is open, the task's tuples bypass it. */
    private void release(Executor executor, int taskId, HandoffGate<TupleImpl> gate, List<TupleImpl> ready)
        throws Exception {
        if (gate.isOpen() && gates.remove(taskId, gate)) {
            congested.remove(taskId);
            unmarkWaiting(taskId);
            boolean installed = "installed".equals(gate.openedBecause());
            if (!installed) {
                LOG.warn("nonstop: task {} starts without a handed-over state: {}", taskId, gate.openedBecause());
            }
            events.append(installed ? "handoff_released" : "handoff_gave_up",
                          Map.of("port", ws.port, "task", taskId, "held", ready.size(),
                                 "reason", gate.openedBecause()));
        }
        for (TupleImpl t : ready) {
            executor.tupleActionFn(taskId, t);
        }
    }

    /** Source, at the barrier: snapshot, size check, chunks out in order; then the old instance forwards. */
    private void handOver(Executor executor, HandoffState<?> bolt, int taskId, long planVersion) {
        long start = clock.getAsLong();
        byte[] bytes;
        try {
            bytes = serialize(bolt.snapshotState());
        } catch (KryoBufferOverflowException e) {
            refuse(taskId, planVersion, "its state is over " + HandoffLimits.MAX_BYTES + " = " + limits.maxBytes()
                                        + " bytes (serialising it stopped at the limit)");
            return;
        } catch (KryoException e) {
            refuse(taskId, planVersion, "its state could not be serialised: " + e.getMessage());
            return;
        } catch (RuntimeException e) {
            refuse(taskId, planVersion, "taking its snapshot failed: " + e);
            return;
        }
        SnapshotChunker chunker = new SnapshotChunker(bytes, limits.chunkBytes());
        long deadline = start + limits.transferTimeoutMs();
        for (SnapshotChunk c : chunker.all()) {
            if (!send(chunkTuple(taskId, planVersion, 1, c), deadline)) {
                // Chunks already sent cannot complete a snapshot; the target's gate opens empty at its deadline.
                refuse(taskId, planVersion, "chunk " + c.index() + " of " + chunker.count() + " could not be sent within "
                                            + HandoffLimits.TRANSFER_TIMEOUT_MS + " = " + limits.transferTimeoutMs()
                                            + " ms");
                return;
            }
        }
        ws.tryFlushRemotes();
        handedOff.put(taskId, planVersion);
        long now = clock.getAsLong();
        // The old instance processes nothing from here on, so this copy stays exact until the target confirms.
        KeptSnapshot copy = new KeptSnapshot(planVersion, chunker.all(), limits, now);
        kept.put(taskId, copy);
        scheduleCheck(taskId, copy, limits.confirmResendMs());
        long took = now - start;
        LOG.info("nonstop: task {} handed its state over ({} bytes in {} chunk(s), {} ms); its old instance now "
                 + "forwards; the copy is kept until the install is confirmed", taskId, bytes.length, chunker.count(),
                 took);
        events.append("handoff_sent", Map.of("port", ws.port, "task", taskId, "plan_version", planVersion,
                                             "bytes", bytes.length, "chunks", chunker.count(), "took_ms", took,
                                             "attempt", 1));
    }

    private AddressedTuple chunkTuple(int taskId, long planVersion, int attempt, SnapshotChunk c) {
        HandoffMessage.ReplyTo self = new HandoffMessage.ReplyTo(ws.assignmentId, ws.port);
        return new AddressedTuple(taskId, message(taskId, HandoffMessage.chunk(planVersion, attempt, self, c)));
    }

    /** Source: looks at a kept copy after {@code delayMs} (on the runtime's timer, never the executor's thread). */
    private void scheduleCheck(int taskId, KeptSnapshot copy, long delayMs) {
        try {
            scheduler.schedule(LoggedTask.of(LOG, "kept handoff copy of task " + taskId, () -> check(taskId, copy)),
                               Math.max(1, delayMs), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("nonstop: worker shutting down; the kept copy of task {} is not sent again", taskId);
        }
    }

    /**
     * Source: the confirmation is overdue. The target's worker may have died before installing and been
     * relaunched on its slot (its new instance waits with a closed gate): the whole copy goes there again, a new
     * attempt; past the confirmation timeout the copy is released, as before it was kept.
     */
    private void check(int taskId, KeptSnapshot copy) {
        if (kept.get(taskId) != copy) {
            return;
        }
        KeptSnapshot.Due due = copy.check(clock.getAsLong());
        if (due instanceof KeptSnapshot.Wait w) {
            scheduleCheck(taskId, copy, w.inMs());
        } else if (due instanceof KeptSnapshot.Resend r) {
            long deadline = clock.getAsLong() + Math.min(RESEND_SEND_MS, limits.transferTimeoutMs());
            int sent = 0;
            for (SnapshotChunk c : copy.chunks()) {
                if (!send(chunkTuple(taskId, copy.planVersion(), r.attempt(), c), deadline)) {
                    break;   // back pressure or no connection yet: the next attempt sends it all again
                }
                sent++;
            }
            ws.tryFlushRemotes();
            LOG.info("nonstop: task {}: no install confirmed for plan v{}; attempt {} sent {} of {} chunk(s) again",
                     taskId, copy.planVersion(), r.attempt(), sent, copy.chunks().size());
            events.append("handoff_resent", Map.of("port", ws.port, "task", taskId, "plan_version", copy.planVersion(),
                                                   "attempt", r.attempt(), "chunks", copy.chunks().size(),
                                                   "sent", sent));
            scheduleCheck(taskId, copy, limits.confirmResendMs());
        } else if (due instanceof KeptSnapshot.GiveUp g) {
            kept.remove(taskId, copy);
            LOG.warn("nonstop: task {}: {}", taskId, g.reason());
            events.append("handoff_gave_up", Map.of("port", ws.port, "task", taskId, "plan_version", copy.planVersion(),
                                                    "role", "source", "attempts", copy.attempt(),
                                                    "reason", g.reason()));
        }
    }

    private void refuse(int taskId, long planVersion, String why) {
        LOG.warn("nonstop: task {} keeps its state on this worker: {}", taskId, why);
        events.append("handoff_aborted", Map.of("port", ws.port, "task", taskId, "plan_version", planVersion,
                                                "reason", why));
        // The new instance need not hold E's tuples until its deadline for a state that will not come.
        if (send(new AddressedTuple(taskId, message(taskId, HandoffMessage.abort(planVersion, why))),
                 clock.getAsLong() + limits.transferTimeoutMs())) {
            ws.tryFlushRemotes();
        } else {
            LOG.warn("nonstop: task {}: could not tell its new home; that gate opens at its deadline", taskId);
        }
    }

    /** Target: one chunk; the complete snapshot is installed before any held tuple is processed. */
    private void receive(Executor executor, Object bolt, int taskId, HandoffMessage.Chunk c) throws Exception {
        if (declinedBefore(taskId, c, limits.transferTimeoutMs())) {
            return;
        }
        HandoffGate<TupleImpl> gate = gates.get(taskId);
        HandoffState<?> s = handoffOf(bolt, ws.getWorkerTopologyContext());
        if (gate == null || s == null) {
            if (!answerAgain(taskId, c)) {
                LOG.warn("nonstop: task {} got a snapshot chunk it does not wait for (plan v{}); ignored", taskId,
                         c.planVersion());
            }
            return;
        }
        Optional<String> noRoom = declineIfNoRoom(taskId, gate, c, limits.transferTimeoutMs());
        if (noRoom.isPresent()) {
            release(executor, taskId, gate, gate.abandon(noRoom.get()));
            return;
        }
        Optional<byte[]> whole;
        try {
            whole = gate.chunk(c.planVersion(), c.chunk());
        } catch (IllegalStateException | IllegalArgumentException e) {
            LOG.warn("nonstop: task {}: {}", taskId, e.getMessage());
            if (e instanceof IllegalArgumentException) {
                release(executor, taskId, gate, gate.abandon("snapshot rejected: " + e.getMessage()));
            }
            return;
        }
        if (whole.isPresent()) {
            install(executor, s, taskId, gate, whole.get(), c);
        }
    }

    /** Target, on the executor's thread: restores the snapshot, then the held tuples run in arrival order. */
    private void install(Executor executor, HandoffState<?> bolt, int taskId, HandoffGate<TupleImpl> gate,
                         byte[] snapshot, HandoffMessage.Chunk from) throws Exception {
        long delay = Long.getLong(TEST_INSTALL_DELAY_MS, 0L);
        if (delay > 0 && from.attempt() == 1) {
            LOG.warn("nonstop: task {}: installing in {} ms ({}, test only)", taskId, delay, TEST_INSTALL_DELAY_MS);
            events.append("handoff_install_delayed", Map.of("port", ws.port, "task", taskId, "delay_ms", delay));
            Thread.sleep(delay);
        }
        try {
            restore(bolt, deserialize(snapshot));
        } catch (RuntimeException e) {
            release(executor, taskId, gate, gate.abandon("installing the snapshot failed: " + e));
            return;
        }
        LOG.info("nonstop: task {} installed its handed-over state ({} bytes, plan v{}, attempt {}); releasing {} held "
                 + "tuple(s)", taskId, snapshot.length, from.planVersion(), from.attempt(), gate.held());
        installedHere.put(taskId, from);
        events.append("handoff_installed", Map.of("port", ws.port, "task", taskId, "plan_version", from.planVersion(),
                                                  "attempt", from.attempt(), "bytes", snapshot.length));
        // Confirmed before the first tuple runs with the state: the source may then drop its copy.
        sendInstalled(taskId, from.planVersion(), from.attempt(), from.replyTo(), limits.transferTimeoutMs());
        release(executor, taskId, gate, gate.installed());
    }

    /** Target: tells the source's worker that the snapshot is installed ({@link #replyToSource}). */
    private void sendInstalled(int taskId, long planVersion, int attempt, HandoffMessage.ReplyTo to, long waitMs) {
        replyToSource(taskId, to, HandoffMessage.installed(planVersion, taskId, attempt), "the install", waitMs);
    }

    /**
     * Target: sends {@code body} (an answer about {@code taskId}'s snapshot, {@code what} it tells) to the source's
     * worker. Addressed to any task this worker's routing maps to the source's slot (the moving task's own tuples
     * route here), the task named inside. Waits out back pressure at most {@code waitMs}; an answer that does not
     * go out is given again at the source's next resend.
     */
    private void replyToSource(int taskId, HandoffMessage.ReplyTo to, byte[] body, String what, long waitMs) {
        NodeInfo source = new NodeInfo(to.node(), Set.of((long) to.port()));
        Integer via = null;
        for (Map.Entry<Integer, NodeInfo> e : ws.cachedTaskToNodePort.get().entrySet()) {
            if (e.getKey() >= 0 && source.equals(e.getValue())) {
                via = e.getKey();
                break;
            }
        }
        if (via == null) {
            LOG.warn("nonstop: task {}: no task of the source's worker {}:{} is routed to from here; it is not told of "
                     + "{} and releases its copy at {}", taskId, to.node(), to.port(), what,
                     HandoffLimits.CONFIRM_TIMEOUT_MS);
            return;
        }
        AddressedTuple t = new AddressedTuple(via, message(taskId, body));
        if (send(t, clock.getAsLong() + waitMs)) {
            ws.tryFlushRemotes();
        } else {
            LOG.warn("nonstop: task {}: {} could not be sent to the source; its resend asks again", taskId, what);
        }
    }

    @SuppressWarnings("unchecked")
    private static <S> void restore(HandoffState<S> bolt, Object snapshot) {
        bolt.restoreState((S) snapshot);
    }

    /** Target, on the scheduler: the gate's deadline passed; the executor's own thread looks at it. */
    private void wake(int taskId) {
        HandoffGate<TupleImpl> gate = gates.get(taskId);
        if (gate == null) {
            return;
        }
        JCQueue queue = ws.taskToExecutorQueue.get(taskId);
        if (queue == null) {
            forget(taskId, gate);   // the instance is gone
            return;
        }
        AddressedTuple w = new AddressedTuple(taskId, message(taskId, HandoffMessage.wake()));
        if (!queue.tryPublish(w) && !queue.tryPublishToOverflow(w)) {
            LOG.warn("nonstop: no room to wake the handoff gate of task {}; its next tuple opens it", taskId);
        }
    }

    /** Target: the gate is not needed (the bolt does not opt in, or its instance is gone). */
    private void forget(int taskId, HandoffGate<TupleImpl> gate) {
        if (gates.remove(taskId, gate)) {
            unmarkWaiting(taskId);
        }
    }

    private void markWaiting(int taskId) {
        try {
            Files.createDirectories(waiting);
            Files.write(waiting.resolve(Integer.toString(taskId)), new byte[0]);
        } catch (IOException e) {
            LOG.warn("nonstop: task {}: could not note that it waits for its state ({}); if this worker dies before the "
                     + "install, its relaunch starts the task empty", taskId, e.toString());
        }
    }

    private void unmarkWaiting(int taskId) {
        try {
            Files.deleteIfExists(waiting.resolve(Integer.toString(taskId)));
        } catch (IOException e) {
            LOG.warn("nonstop: task {}: could not remove its waiting note: {}", taskId, e.toString());
        }
    }

    /**
     * Target, when the worker starts (before its executors): tasks whose gate was waiting when this slot's last
     * worker died wait again, for the source's resend of its kept copy, at most {@link HandoffLimits#CONFIRM_TIMEOUT_MS}
     * (the longest the source keeps it). A note older than that is stale and removed.
     *
     * @return how many gates were closed again
     */
    int resumeWaiting() {
        if (!Files.isDirectory(waiting)) {
            return 0;
        }
        long now = clock.getAsLong();
        List<Integer> again = new ArrayList<>();
        try (DirectoryStream<Path> notes = Files.newDirectoryStream(waiting)) {
            for (Path note : notes) {
                int task;
                try {
                    task = Integer.parseInt(note.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                if (now - Files.getLastModifiedTime(note).toMillis() >= limits.confirmTimeoutMs()
                    || !ws.getLocalTaskIds().contains(task)) {
                    Files.deleteIfExists(note);
                } else {
                    again.add(task);
                }
            }
        } catch (IOException e) {
            LOG.warn("nonstop: could not read which tasks waited for their state before this worker started: {}",
                     e.toString());
        }
        if (!again.isEmpty()) {
            expect(again, now + limits.confirmTimeoutMs());
            for (int t : again) {
                if (gates.containsKey(t)) {
                    LOG.warn("nonstop: task {} waited for its handed-over state when this slot's last worker died; it "
                             + "waits again for the source's resend", t);
                    events.append("handoff_awaiting", Map.of("port", ws.port, "task", t,
                                                             "reason", "relaunched before its state was installed"));
                }
            }
        }
        return again.size();
    }

    private void forward(int taskId, TupleImpl tuple) {
        if (send(new AddressedTuple(taskId, tuple), clock.getAsLong() + limits.transferTimeoutMs())) {
            ws.tryFlushRemotes();
        } else {
            LOG.warn("nonstop: a tuple for task {} could not be forwarded to its new home; the acker replays it",
                     taskId);
        }
    }

    /** Sends in order on this thread, waiting out back pressure on the way (never past {@code deadlineMs}). */
    private boolean send(AddressedTuple t, long deadlineMs) {
        KryoTupleSerializer ser = serializer.get();
        while (!ws.tryTransferRemote(t, null, ser)) {
            if (clock.getAsLong() >= deadlineMs || Thread.currentThread().isInterrupted()) {
                return false;
            }
            ws.tryFlushRemotes();
            LockSupport.parkNanos(SEND_PAUSE_NS);
        }
        return true;
    }

    private TupleImpl message(int taskId, byte[] body) {
        List<Object> values = new ArrayList<>(1);
        values.add(body);
        return new TupleImpl(ws.getWorkerTopologyContext(), values, ws.getTaskToComponent().get(taskId), taskId, STREAM);
    }

    private byte[] serialize(Object snapshot) {
        // The output refuses to grow past the limit, so an oversized state fails before it is all copied.
        int max = (int) Math.min(HandoffLimits.LARGEST_SNAPSHOT, limits.maxBytes());
        Output out = new Output(Math.min(4096, max), max);
        kryo.get().writeClassAndObject(out, snapshot);
        return out.toBytes();
    }

    private Object deserialize(byte[] bytes) {
        return kryo.get().readClassAndObject(new Input(bytes));
    }
}
