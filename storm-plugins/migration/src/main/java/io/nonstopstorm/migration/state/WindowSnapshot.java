package io.nonstopstorm.migration.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a live move hands over for a Storm windowed bolt ({@code BaseWindowedBolt} run by
 * {@code WindowedBoltExecutor}) with a count-based window (docs/state-handoff.md, "Storm's windowed bolts"):
 * the events in its window manager's queue in order (each tuple with its values, its acker identity and its
 * tracking timestamp, and whether the last window that fired held it, which decides the next window's new
 * tuples), the tuples expired since the last window fired (the next window reports them as expired; they
 * were acked when they expired), the manager's count towards its next compaction, and the count trigger's
 * and count eviction's counters. The new instance fires the next window where the old one would have, and
 * acks each tuple once, when it leaves the window.
 *
 * <p>{@link #toWire()} is made of Kryo's default types only, besides the tuples' own values (which the
 * topology's Kryo already serialises); {@link #fromWire(Object)} checks every part and names the wrong one.
 *
 * @param events          the window's events, oldest first
 * @param expired         tuples expired since the last window fired, in expiry order
 * @param sinceCompaction events added since the manager last compacted its window
 * @param triggerCount    the count trigger's events since the last window fired
 * @param evictionCount   the count eviction's events in the window
 */
public record WindowSnapshot(List<Event> events, List<WindowTuple> expired, int sinceCompaction, int triggerCount,
                             long evictionCount) {
    /** Bumped when the wire form changes; a snapshot of another format is refused, not guessed at. */
    public static final int FORMAT = 1;

    public WindowSnapshot {
        events = List.copyOf(events);
        expired = List.copyOf(expired);
        if (sinceCompaction < 0 || triggerCount < 0 || evictionCount < 0) {
            throw new IllegalArgumentException("a window counter is negative: compaction " + sinceCompaction
                                               + ", trigger " + triggerCount + ", eviction " + evictionCount);
        }
    }

    /** A tuple of the window: where it came from, its values, and what acking it needs. */
    public record WindowTuple(String component, int task, String stream, List<Object> values,
                              Map<Long, Long> anchors, long ackVal) {
        public WindowTuple {
            Objects.requireNonNull(component, "component");
            Objects.requireNonNull(stream, "stream");
            values = new ArrayList<>(values);   // a tuple's values may hold nulls: List.copyOf would refuse them
            anchors = Map.copyOf(anchors);
        }

        @Override
        public List<Object> values() {
            return new ArrayList<>(values);
        }
    }

    /**
     * An event of the window's queue.
     *
     * @param inLastWindow whether the last window that fired held it (it is then not new in the next one)
     */
    public record Event(WindowTuple tuple, long timestamp, boolean inLastWindow) {
        public Event {
            Objects.requireNonNull(tuple, "tuple");
        }
    }

    // ------------------------------------------------------------------ wire form

    public Map<String, Object> toWire() {
        Map<String, Object> w = new HashMap<>();
        w.put("format", FORMAT);
        List<Object> es = new ArrayList<>();
        for (Event e : events) {
            es.add(new ArrayList<>(List.of(tuple(e.tuple()), e.timestamp(), e.inLastWindow())));
        }
        w.put("events", es);
        List<Object> xs = new ArrayList<>();
        expired.forEach(t -> xs.add(tuple(t)));
        w.put("expired", xs);
        w.put("since_compaction", sinceCompaction);
        w.put("trigger_count", triggerCount);
        w.put("eviction_count", evictionCount);
        return w;
    }

    private static List<Object> tuple(WindowTuple t) {
        return new ArrayList<>(List.of(t.component(), t.task(), t.stream(), t.values(), new HashMap<>(t.anchors()),
                                       t.ackVal()));
    }

    /**
     * @throws IllegalArgumentException naming the part that is missing or of the wrong type
     */
    public static WindowSnapshot fromWire(Object wire) {
        Map<?, ?> w = as(Map.class, wire, "the snapshot");
        Object format = w.get("format");
        if (!(format instanceof Integer f) || f != FORMAT) {
            throw new IllegalArgumentException("window snapshot of format " + format + ", expected " + FORMAT);
        }
        List<Event> events = new ArrayList<>();
        for (Object o : as(List.class, w.get("events"), "events")) {
            List<?> e = fields(o, 3, "an event");
            events.add(new Event(tuple(e.get(0), "an event's tuple"), as(Long.class, e.get(1), "an event's timestamp"),
                                 as(Boolean.class, e.get(2), "an event's last-window flag")));
        }
        List<WindowTuple> expired = new ArrayList<>();
        for (Object o : as(List.class, w.get("expired"), "expired")) {
            expired.add(tuple(o, "an expired tuple"));
        }
        return new WindowSnapshot(events, expired, as(Integer.class, w.get("since_compaction"), "since_compaction"),
                                  as(Integer.class, w.get("trigger_count"), "trigger_count"),
                                  as(Long.class, w.get("eviction_count"), "eviction_count"));
    }

    private static WindowTuple tuple(Object o, String what) {
        List<?> t = fields(o, 6, what);
        Map<Long, Long> anchors = new HashMap<>();
        Map<?, ?> wireAnchors = as(Map.class, t.get(4), what + "'s anchors");
        for (Map.Entry<?, ?> e : wireAnchors.entrySet()) {
            anchors.put(as(Long.class, e.getKey(), "an anchor's root id"), as(Long.class, e.getValue(), "an anchor's id"));
        }
        @SuppressWarnings("unchecked")
        List<Object> values = as(List.class, t.get(3), what + "'s values");
        return new WindowTuple(as(String.class, t.get(0), what + "'s component"),
                               as(Integer.class, t.get(1), what + "'s task"),
                               as(String.class, t.get(2), what + "'s stream"), values, anchors,
                               as(Long.class, t.get(5), what + "'s ack value"));
    }

    private static List<?> fields(Object o, int n, String what) {
        List<?> l = as(List.class, o, what);
        if (l.size() != n) {
            throw new IllegalArgumentException(what + " has " + l.size() + " fields, expected " + n);
        }
        return l;
    }

    private static <T> T as(Class<T> type, Object o, String what) {
        if (!type.isInstance(o)) {
            throw new IllegalArgumentException(what + " is " + (o == null ? "missing" : "a " + o.getClass().getSimpleName())
                                               + ", expected a " + type.getSimpleName());
        }
        return type.cast(o);
    }
}
