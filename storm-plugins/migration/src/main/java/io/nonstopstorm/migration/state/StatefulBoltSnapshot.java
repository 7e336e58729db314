package io.nonstopstorm.migration.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a live move hands over for a Storm stateful bolt ({@code IStatefulBolt} wrapped by
 * {@code StatefulBoltExecutor}) whose state is a {@code KeyValueState} (docs/state-handoff.md, "Storm's stateful
 * bolts"): the state's {@link Contents}, which for the in-memory provider are its current, prepared and
 * committed contents with their txids ({@link InMemory}, so a PREPARE taken by the old instance and a COMMIT
 * reaching the new one still match), and for a persistent provider only the changes not in its store
 * ({@link UnstoredChanges}: the new instance reads the rest from the store); the executor's checkpoint
 * bookkeeping (last txid, partial transaction requests); and the tuples it executed but acks only at a COMMIT,
 * as the identities the acker needs. Only an initialised executor is handed over.
 *
 * <p>{@link #toWire()} is made of Kryo's default types only (maps, lists, strings, boxed numbers), since the
 * snapshot travels through the topology's Kryo, which does not know this class; {@link #fromWire(Object)}
 * checks every part and says which one is wrong. The keys and values of the state are the bolt's own.
 *
 * @param lastTxid  the executor's last handled txid
 * @param requests  checkpoint requests still waiting for more input tasks
 * @param contents  the state's contents, or the part of them a persistent provider's store does not hold
 * @param acked     tuples executed since the last PREPARE (acked at the COMMIT after the next PREPARE)
 * @param preparedTuples tuples covered by the pending PREPARE (acked at its COMMIT)
 */
public record StatefulBoltSnapshot(long lastTxid, List<Request> requests, Contents contents,
                                   List<AckIdentity> acked, List<AckIdentity> preparedTuples) {
    /** Bumped when the wire form changes; a snapshot of another format is refused, not guessed at. */
    public static final int FORMAT = 2;

    public StatefulBoltSnapshot {
        requests = List.copyOf(requests);
        Objects.requireNonNull(contents, "contents");
        acked = List.copyOf(acked);
        preparedTuples = List.copyOf(preparedTuples);
    }

    /** What is handed over of the state itself: all of it, or what the provider's store lacks. */
    public sealed interface Contents permits InMemory, UnstoredChanges {
    }

    /**
     * The in-memory provider's whole state.
     *
     * @param current   the contents the bolt sees now (uncommitted puts included)
     * @param prepared  the prepared transaction, or null
     * @param committed the last committed transaction, or null
     */
    public record InMemory(Map<Object, Object> current, Transaction prepared, Transaction committed)
        implements Contents {
        public InMemory {
            current = Map.copyOf(Objects.requireNonNull(current, "current"));
        }
    }

    /** A transaction's state: the txid and the contents it saved. */
    public record Transaction(long txid, Map<Object, Object> contents) {
        public Transaction {
            contents = Map.copyOf(Objects.requireNonNull(contents, "contents"));
        }
    }

    /** A checkpoint request seen from some, not yet all, of the executor's checkpoint input tasks. */
    public record Request(String action, long txid, int count) {
        public Request {
            Objects.requireNonNull(action, "action");
        }
    }

    /**
     * What acking or failing an executed tuple needs: where it came from (for the ack hooks' and the
     * tuple's shape) and its message id's anchors, with the ack value the executor XORs in.
     */
    public record AckIdentity(String component, int task, String stream, Map<Long, Long> anchors, long ackVal) {
        public AckIdentity {
            Objects.requireNonNull(component, "component");
            Objects.requireNonNull(stream, "stream");
            anchors = Map.copyOf(anchors);
        }
    }

    // ------------------------------------------------------------------ wire form

    static final String IN_MEMORY = "in_memory";
    static final String UNSTORED = "unstored";

    public Map<String, Object> toWire() {
        Map<String, Object> w = new HashMap<>();
        w.put("format", FORMAT);
        w.put("last_txid", lastTxid);
        List<Object> rs = new ArrayList<>();
        for (Request r : requests) {
            rs.add(new ArrayList<>(List.of(r.action(), r.txid(), r.count())));
        }
        w.put("requests", rs);
        if (contents instanceof InMemory m) {
            w.put("state_kind", IN_MEMORY);
            w.put("current", new HashMap<>(m.current()));
            if (m.prepared() != null) {
                w.put("prepared", transaction(m.prepared()));
            }
            if (m.committed() != null) {
                w.put("committed", transaction(m.committed()));
            }
        } else if (contents instanceof UnstoredChanges u) {
            w.put("state_kind", UNSTORED);
            w.put("puts", new HashMap<>(u.puts()));
            w.put("deletes", new ArrayList<>(u.deletes()));
        }
        w.put("acked", identities(acked));
        w.put("prepared_tuples", identities(preparedTuples));
        return w;
    }

    private static List<Object> transaction(Transaction t) {
        return new ArrayList<>(List.of(t.txid(), new HashMap<>(t.contents())));
    }

    private static List<Object> identities(List<AckIdentity> ids) {
        List<Object> out = new ArrayList<>();
        for (AckIdentity a : ids) {
            out.add(new ArrayList<>(List.of(a.component(), a.task(), a.stream(), new HashMap<>(a.anchors()), a.ackVal())));
        }
        return out;
    }

    /**
     * @throws IllegalArgumentException naming the part that is missing or of the wrong type
     */
    public static StatefulBoltSnapshot fromWire(Object wire) {
        Map<?, ?> w = map(wire, "the snapshot");
        Object format = w.get("format");
        if (!(format instanceof Integer f) || f != FORMAT) {
            throw new IllegalArgumentException("stateful bolt snapshot of format " + format + ", expected " + FORMAT);
        }
        List<Request> requests = new ArrayList<>();
        for (Object o : as(List.class, w.get("requests"), "requests")) {
            List<?> r = fields(o, 3, "a request");
            requests.add(new Request(as(String.class, r.get(0), "a request's action"),
                                     as(Long.class, r.get(1), "a request's txid"),
                                     as(Integer.class, r.get(2), "a request's count")));
        }
        return new StatefulBoltSnapshot(as(Long.class, w.get("last_txid"), "last_txid"), requests, contents(w),
                                        identities(w.get("acked"), "acked"),
                                        identities(w.get("prepared_tuples"), "prepared_tuples"));
    }

    private static Contents contents(Map<?, ?> w) {
        Object kind = w.get("state_kind");
        if (IN_MEMORY.equals(kind)) {
            return new InMemory(contents(w.get("current"), "current"),
                                w.containsKey("prepared") ? transaction(w.get("prepared"), "prepared") : null,
                                w.containsKey("committed") ? transaction(w.get("committed"), "committed") : null);
        }
        if (UNSTORED.equals(kind)) {
            List<Object> deletes = new ArrayList<>();
            for (Object k : as(List.class, w.get("deletes"), "deletes")) {
                if (k == null) {
                    throw new IllegalArgumentException("deletes holds a null key");
                }
                deletes.add(k);
            }
            return new UnstoredChanges(contents(w.get("puts"), "puts"), deletes);
        }
        throw new IllegalArgumentException("state_kind is " + kind + ", expected " + IN_MEMORY + " or " + UNSTORED);
    }

    private static Transaction transaction(Object o, String what) {
        List<?> t = fields(o, 2, what);
        return new Transaction(as(Long.class, t.get(0), what + "'s txid"), contents(t.get(1), what + "'s contents"));
    }

    private static Map<Object, Object> contents(Object o, String what) {
        Map<Object, Object> out = new HashMap<>();
        for (Map.Entry<?, ?> e : map(o, what).entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new IllegalArgumentException(what + " holds a null key or value");
            }
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    private static List<AckIdentity> identities(Object o, String what) {
        List<AckIdentity> out = new ArrayList<>();
        for (Object i : as(List.class, o, what)) {
            List<?> a = fields(i, 5, "a tuple of " + what);
            Map<Long, Long> anchors = new HashMap<>();
            for (Map.Entry<?, ?> e : map(a.get(3), "a tuple's anchors").entrySet()) {
                anchors.put(as(Long.class, e.getKey(), "an anchor's root id"), as(Long.class, e.getValue(), "an anchor's id"));
            }
            out.add(new AckIdentity(as(String.class, a.get(0), "a tuple's component"),
                                    as(Integer.class, a.get(1), "a tuple's task"),
                                    as(String.class, a.get(2), "a tuple's stream"), anchors,
                                    as(Long.class, a.get(4), "a tuple's ack value")));
        }
        return out;
    }

    private static List<?> fields(Object o, int n, String what) {
        List<?> l = as(List.class, o, what);
        if (l.size() != n) {
            throw new IllegalArgumentException(what + " has " + l.size() + " fields, expected " + n);
        }
        return l;
    }

    private static Map<?, ?> map(Object o, String what) {
        return as(Map.class, o, what);
    }

    private static <T> T as(Class<T> type, Object o, String what) {
        if (!type.isInstance(o)) {
            throw new IllegalArgumentException(what + " is " + (o == null ? "missing" : "a " + o.getClass().getSimpleName())
                                               + ", expected a " + type.getSimpleName());
        }
        return type.cast(o);
    }
}
