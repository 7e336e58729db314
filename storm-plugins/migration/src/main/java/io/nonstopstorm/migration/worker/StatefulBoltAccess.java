package io.nonstopstorm.migration.worker;

import io.nonstopstorm.migration.state.StatefulBoltSnapshot;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.AckIdentity;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.InMemory;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.Request;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.Transaction;
import io.nonstopstorm.migration.state.StoreBackedState;
import io.nonstopstorm.migration.state.UnstoredChanges;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.storm.spout.CheckPointState;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.State;
import org.apache.storm.state.StateFactory;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.IStatefulBolt;
import org.apache.storm.topology.WindowedBoltExecutor;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * Every reflective access to Storm's stateful-bolt classes, in one place: reads a
 * {@code StatefulBoltExecutor} and its state into a {@link StatefulBoltSnapshot} and installs one into a new
 * executor of the same component. Two kinds of state are handed over: Storm's {@code InMemoryKeyValueState}
 * (all of it, read from its private fields) and a persistent provider's state that says what its store lacks
 * ({@link StoreBackedState}: only that part; the new instance gets a state built by the topology's provider
 * over the store, as Storm's own prepare builds one). Storm keeps these parts in private fields; which
 * ones, is checked once when this class loads ({@link #unavailable()}): in a Storm version where one is
 * missing or of another type, nothing is handed over and the scheduler refuses such moves as before.
 * Both directions run on the executor's own thread, between two tuples. A stateful windowed bolt (Storm wraps
 * its windowed executor in the same stateful executor) is refused: its window's tuples live in the window
 * manager, not in the state.
 */
public final class StatefulBoltAccess {
    static final String EXECUTOR = "org.apache.storm.topology.StatefulBoltExecutor";
    static final String BASE = "org.apache.storm.topology.BaseStatefulBoltExecutor";
    static final String REQUEST = BASE + "$TransactionRequest";
    static final String COLLECTOR = EXECUTOR + "$AckTrackingOutputCollector";
    static final String IN_MEMORY = "org.apache.storm.state.InMemoryKeyValueState";
    static final String TX_STATE = IN_MEMORY + "$TxIdState";

    /** This Storm's reader, or why it has none (checked once, when the class loads). */
    public static final StormReflection.Loaded<StatefulBoltAccess> THIS_STORM = load(StormReflection::stormClass);

    private final Class<?> executorClass;
    private final Class<?> inMemoryClass;
    private final Field bolt;
    private final Field state;
    private final Field initialized;
    private final Field pending;
    private final Field preparedTuples;
    private final Field collector;
    private final Field ackedTuples;
    private final Field lastTxid;
    private final Field requests;
    private final Field requestAction;
    private final Field requestTxid;
    private final Constructor<?> newRequest;
    private final Field current;
    private final Field prepared;
    private final Field committed;
    private final Field txTxid;
    private final Field txContents;
    private final Constructor<?> newTx;

    private StatefulBoltAccess(Function<String, Class<?>> classes) throws ReflectiveOperationException {
        executorClass = classes.apply(EXECUTOR);
        Class<?> base = classes.apply(BASE);
        Class<?> request = classes.apply(REQUEST);
        inMemoryClass = classes.apply(IN_MEMORY);
        Class<?> tx = classes.apply(TX_STATE);
        bolt = StormReflection.field(executorClass, "bolt", IStatefulBolt.class);
        state = StormReflection.field(executorClass, "state", Object.class);
        initialized = StormReflection.field(executorClass, "boltInitialized", boolean.class);
        pending = StormReflection.field(executorClass, "pendingTuples", List.class);
        preparedTuples = StormReflection.field(executorClass, "preparedTuples", List.class);
        collector = StormReflection.field(executorClass, "collector", Object.class);
        ackedTuples = StormReflection.field(classes.apply(COLLECTOR), "ackedTuples", Queue.class);
        lastTxid = StormReflection.field(base, "lastTxid", long.class);
        requests = StormReflection.field(base, "transactionRequestCount", Map.class);
        requestAction = StormReflection.field(request, "action", CheckPointState.Action.class);
        requestTxid = StormReflection.field(request, "txid", long.class);
        newRequest = request.getDeclaredConstructor(CheckPointState.Action.class, long.class);
        newRequest.setAccessible(true);
        current = StormReflection.field(inMemoryClass, "state", Map.class);
        prepared = StormReflection.field(inMemoryClass, "preparedState", tx);
        committed = StormReflection.field(inMemoryClass, "commitedState", tx);
        txTxid = StormReflection.field(tx, "txid", long.class);
        txContents = StormReflection.field(tx, "state", Map.class);
        newTx = tx.getDeclaredConstructor(long.class, Map.class);
        newTx.setAccessible(true);
    }

    /** Resolves every field and constructor through {@code classes}, or says which one is missing. */
    static StormReflection.Loaded<StatefulBoltAccess> load(Function<String, Class<?>> classes) {
        return StormReflection.load(() -> new StatefulBoltAccess(classes), "stateful bolt executor", "state handoff");
    }

    /** Whether {@code taskObject} is Storm's wrapper of a stateful bolt (whatever its state provider). */
    public boolean wraps(Object taskObject) {
        return taskObject != null && taskObject.getClass() == executorClass;
    }

    /**
     * Whether {@code taskObject} is a stateful bolt this class hands over: Storm's wrapper, a bolt that is not
     * windowed, and the in-memory state or a {@link StoreBackedState}. Other stateful bolts move as before this
     * existed (no barrier, no gate).
     */
    public boolean handsOver(Object taskObject) {
        return wraps(taskObject) && refusal(taskObject).isEmpty();
    }

    /** Why Storm's stateful executor {@code taskObject} is not handed over, or empty when it is. */
    public Optional<String> refusal(Object taskObject) {
        try {
            if (bolt.get(taskObject) instanceof WindowedBoltExecutor) {
                return Optional.of("it is a stateful windowed bolt: the tuples in its window are not handed over");
            }
            Object st = state.get(taskObject);
            if (st == null) {
                return Optional.of("it has no state");
            }
            if (st.getClass() == inMemoryClass || st instanceof StoreBackedState) {
                return Optional.empty();
            }
            return Optional.of("its state is a " + st.getClass().getName() + ", whose provider has no handoff: "
                               + "neither Storm's in-memory KeyValueState nor a " + StoreBackedState.class.getName());
        } catch (IllegalAccessException e) {
            return Optional.of("reading it failed: " + e);
        }
    }

    /**
     * The old instance's parts, read without changing anything (a handoff that fails later leaves the
     * instance going on as before).
     *
     * @throws IllegalStateException why this executor is not handed over (not initialised yet, a provider
     *                               without a handoff)
     */
    public StatefulBoltSnapshot capture(Object executor) {
        try {
            if (!wraps(executor)) {
                throw new IllegalStateException("it is not a Storm stateful bolt executor");
            }
            Optional<String> refused = refusal(executor);
            if (refused.isPresent()) {
                throw new IllegalStateException(refused.get());
            }
            Object st = state.get(executor);
            if (!initialized.getBoolean(executor)) {
                throw new IllegalStateException("its state is not initialised yet (it waits for INITSTATE)");
            }
            if (!((List<?>) pending.get(executor)).isEmpty()) {
                throw new IllegalStateException("it holds tuples from before its INITSTATE");
            }
            List<Request> rs = new ArrayList<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) requests.get(executor)).entrySet()) {
                rs.add(new Request(((CheckPointState.Action) requestAction.get(e.getKey())).name(),
                                   requestTxid.getLong(e.getKey()), (Integer) e.getValue()));
            }
            List<AckIdentity> acked = new ArrayList<>();
            for (Object t : (Queue<?>) ackedTuples.get(collector.get(executor))) {
                acked.add(identity(t));
            }
            List<AckIdentity> prep = new ArrayList<>();
            for (Object t : (List<?>) preparedTuples.get(executor)) {
                prep.add(identity(t));
            }
            StatefulBoltSnapshot.Contents contents;
            if (st instanceof StoreBackedState stored) {
                contents = stored.unstoredChanges();
            } else {
                @SuppressWarnings("unchecked")
                Map<Object, Object> now = (Map<Object, Object>) current.get(st);
                contents = new InMemory(now, transaction(prepared.get(st)), transaction(committed.get(st)));
            }
            return new StatefulBoltSnapshot(lastTxid.getLong(executor), rs, contents, acked, prep);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("reading the stateful bolt failed: " + e.getMessage(), e);
        }
    }

    private Object inMemoryState(Object executor) throws IllegalAccessException {
        if (!wraps(executor)) {
            throw new IllegalStateException("it is not a Storm stateful bolt executor");
        }
        Object st = state.get(executor);
        if (st == null || st.getClass() != inMemoryClass) {
            throw new IllegalStateException("its state is " + (st == null ? "not there" : "a " + st.getClass().getName())
                                            + ", not Storm's in-memory KeyValueState, which the snapshot holds");
        }
        return st;
    }

    private Transaction transaction(Object tx) throws IllegalAccessException {
        if (tx == null) {
            return null;
        }
        @SuppressWarnings("unchecked")
        Map<Object, Object> contents = (Map<Object, Object>) txContents.get(tx);
        return new Transaction(txTxid.getLong(tx), contents);
    }

    private static AckIdentity identity(Object tuple) {
        if (!(tuple instanceof TupleImpl t)) {
            throw new IllegalStateException("a pending tuple is a " + tuple.getClass().getName() + ", not a TupleImpl");
        }
        return new AckIdentity(t.getSourceComponent(), t.getSourceTask(), t.getSourceStreamId(),
                               t.getMessageId().getAnchorsToIds(), t.getAckVal());
    }

    /** {@link #restore(Object, StatefulBoltSnapshot, GeneralTopologyContext, Supplier)} of an in-memory state. */
    public void restore(Object executor, StatefulBoltSnapshot s, GeneralTopologyContext context) {
        restore(executor, s, context, null);
    }

    /**
     * Installs {@code s} into a new, not yet initialised executor: its state, its checkpoint bookkeeping and
     * the tuples to ack at the coming commits, then the bolt's {@code initState} with that state, as Storm's
     * INITSTATE would. An in-memory state is filled with the handed-over contents; for a persistent provider
     * the executor gets a state {@code store} builds now (after the old instance's last write to the store, so
     * it reads the latest committed and prepared data), with the unstored changes applied. Everything is built
     * before anything is set, and a bolt whose {@code initState} throws is put back as it was, so a failed
     * install leaves the executor waiting for INITSTATE as before.
     *
     * @param context the worker's topology context (the acked tuples are rebuilt against it)
     * @param store   builds the state through the topology's provider ({@link #providerState}); only a
     *                persistent provider's snapshot needs it
     * @throws IllegalStateException why it could not be installed
     */
    public void restore(Object executor, StatefulBoltSnapshot s, GeneralTopologyContext context,
                        Supplier<State> store) {
        try {
            if (!wraps(executor)) {
                throw new IllegalStateException("it is not a Storm stateful bolt executor");
            }
            if (initialized.getBoolean(executor)) {
                throw new IllegalStateException("the new instance is already initialised");
            }
            Map<Object, Integer> reqs = new HashMap<>();
            for (Request r : s.requests()) {
                reqs.put(newRequest.newInstance(CheckPointState.Action.valueOf(r.action()), r.txid()), r.count());
            }
            List<Tuple> acked = tuples(s.acked(), context);
            List<Tuple> prep = tuples(s.preparedTuples(), context);

            long oldTxid = lastTxid.getLong(executor);
            Object oldState = state.get(executor);
            Object installed;
            Object[] oldInMemory = null;
            if (s.contents() instanceof InMemory m) {
                Object st = inMemoryState(executor);
                Map<Object, Object> nowState = new ConcurrentHashMap<>(m.current());
                Object preparedTx = tx(m.prepared());
                Object committedTx = tx(m.committed());
                oldInMemory = new Object[] {current.get(st), prepared.get(st), committed.get(st)};
                current.set(st, nowState);
                prepared.set(st, preparedTx);
                committed.set(st, committedTx);
                installed = st;
            } else {
                installed = fromStore((UnstoredChanges) s.contents(), oldState, store);
                state.set(executor, installed);
            }
            lastTxid.setLong(executor, s.lastTxid());
            try {
                @SuppressWarnings("unchecked")
                IStatefulBolt<State> b = (IStatefulBolt<State>) bolt.get(executor);
                b.initState((State) installed);
            } catch (RuntimeException e) {
                if (oldInMemory != null) {
                    current.set(installed, oldInMemory[0]);
                    prepared.set(installed, oldInMemory[1]);
                    committed.set(installed, oldInMemory[2]);
                }
                state.set(executor, oldState);
                lastTxid.setLong(executor, oldTxid);
                throw new IllegalStateException("the bolt's initState failed: " + e, e);
            }
            @SuppressWarnings("unchecked")
            Map<Object, Integer> liveRequests = (Map<Object, Integer>) requests.get(executor);
            liveRequests.clear();
            liveRequests.putAll(reqs);
            @SuppressWarnings("unchecked")
            List<Tuple> livePrepared = (List<Tuple>) preparedTuples.get(executor);
            livePrepared.addAll(prep);
            @SuppressWarnings("unchecked")
            Queue<Tuple> liveAcked = (Queue<Tuple>) ackedTuples.get(collector.get(executor));
            liveAcked.addAll(acked);
            initialized.setBoolean(executor, true);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("installing into the stateful bolt failed: " + e, e);
        }
    }

    /**
     * A new state over the store with the old instance's unstored changes applied. The new executor's own state
     * (built at its prepare, before the old instance's last commits) is left unused, as Storm leaves a replaced one.
     */
    private static State fromStore(UnstoredChanges changes, Object ownState, Supplier<State> store) {
        if (!(ownState instanceof StoreBackedState)) {
            throw new IllegalStateException("the snapshot holds a persistent provider's unstored changes, but the new "
                                            + "instance's state is " + (ownState == null ? "not there" : "a "
                                            + ownState.getClass().getName()));
        }
        if (store == null) {
            throw new IllegalStateException("no way to build the new instance's state through the topology's "
                                            + "provider is known for this task");
        }
        State fresh = store.get();
        if (!(fresh instanceof KeyValueState<?, ?>) || fresh.getClass() != ownState.getClass()) {
            throw new IllegalStateException("the topology's provider built a "
                                            + (fresh == null ? "null state" : fresh.getClass().getName())
                                            + ", not a " + ownState.getClass().getName());
        }
        @SuppressWarnings("unchecked")
        KeyValueState<Object, Object> kv = (KeyValueState<Object, Object>) fresh;
        changes.deletes().forEach(kv::delete);
        changes.puts().forEach(kv::put);
        return fresh;
    }

    /**
     * The state Storm's {@code StatefulBoltExecutor.prepare} would build for this task now: the topology's
     * provider ({@code StateFactory}) over the namespace "component-task".
     */
    public static State providerState(TopologyContext task, Map<String, Object> topoConf) {
        return StateFactory.getState(task.getThisComponentId() + "-" + task.getThisTaskId(), topoConf, task);
    }

    private Object tx(Transaction t) throws ReflectiveOperationException {
        return t == null ? null : newTx.newInstance(t.txid(), new ConcurrentHashMap<>(t.contents()));
    }

    /**
     * Tuples that ack and fail as the originals would: the acker needs only the anchors and the ack value, so
     * the values (already executed, never read again) are nulls in the tuple's shape.
     */
    private static List<Tuple> tuples(List<AckIdentity> ids, GeneralTopologyContext context) {
        List<Tuple> out = new ArrayList<>(ids.size());
        for (AckIdentity a : ids) {
            int width = context.getComponentOutputFields(a.component(), a.stream()).size();
            TupleImpl t = new TupleImpl(context, new ArrayList<>(Collections.nCopies(width, null)), a.component(),
                                        a.task(), a.stream(), MessageId.makeId(new HashMap<>(a.anchors())));
            t.updateAckVal(a.ackVal());
            out.add(t);
        }
        return out;
    }
}
