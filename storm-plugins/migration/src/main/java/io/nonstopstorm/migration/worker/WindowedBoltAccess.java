package io.nonstopstorm.migration.worker;

import io.nonstopstorm.migration.state.WindowSnapshot;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.windowing.CountEvictionPolicy;
import org.apache.storm.windowing.CountTriggerPolicy;
import org.apache.storm.windowing.Event;
import org.apache.storm.windowing.WindowManager;

/**
 * Every reflective access to Storm's windowed-bolt classes, in one place: reads a {@code WindowedBoltExecutor}'s
 * window manager into a {@link WindowSnapshot} and installs one into a new executor of the same component.
 * Storm keeps the window in private fields; which ones, is checked once when this class loads
 * ({@link #unavailable()}): in a Storm version where one is missing or of another type, nothing is handed over.
 *
 * <p>Handed over: count-based windows (sliding or tumbling), whose trigger and eviction run on the executor's
 * own thread, so reading them between two tuples sees a window at rest. Not handed over (they move as before,
 * and Nimbus refuses their live move, {@code MoveRules}): a time-based window (its trigger fires on a timer
 * thread of the old instance, which would go on firing), an event-time window (timestamps, watermarks and a
 * late-tuple stream), and Storm's persistent or stateful windowed executors.
 */
public final class WindowedBoltAccess {
    static final String EXECUTOR = "org.apache.storm.topology.WindowedBoltExecutor";
    static final String EVENT = "org.apache.storm.windowing.EventImpl";

    /** This Storm's reader, or why it has none (checked once, when the class loads). */
    public static final StormReflection.Loaded<WindowedBoltAccess> THIS_STORM = load(StormReflection::stormClass);

    private final Class<?> executorClass;
    private final Field windowManager;
    private final Field timestampExtractor;
    private final Field triggerPolicy;
    private final Field evictionPolicy;
    private final Field queue;
    private final Field lastWindow;
    private final Field expired;
    private final Field sinceCompaction;
    private final Constructor<?> newEvent;

    private WindowedBoltAccess(Function<String, Class<?>> classes) throws ReflectiveOperationException {
        executorClass = classes.apply(EXECUTOR);
        Class<?> event = classes.apply(EVENT);
        windowManager = StormReflection.field(executorClass, "windowManager", WindowManager.class);
        timestampExtractor = StormReflection.field(executorClass, "timestampExtractor", Object.class);
        triggerPolicy = StormReflection.field(executorClass, "triggerPolicy", Object.class);
        evictionPolicy = StormReflection.field(executorClass, "evictionPolicy", Object.class);
        queue = StormReflection.field(WindowManager.class, "queue", Collection.class);
        lastWindow = StormReflection.field(WindowManager.class, "prevWindowEvents", Set.class);
        expired = StormReflection.field(WindowManager.class, "expiredEvents", List.class);
        sinceCompaction = StormReflection.field(WindowManager.class, "eventsSinceLastExpiry", AtomicInteger.class);
        newEvent = event.getDeclaredConstructor(Object.class, long.class);
        newEvent.setAccessible(true);
    }

    /** Resolves every field and constructor through {@code classes}, or says which one is missing. */
    static StormReflection.Loaded<WindowedBoltAccess> load(Function<String, Class<?>> classes) {
        return StormReflection.load(() -> new WindowedBoltAccess(classes), "windowed bolt executor", "state handoff");
    }

    /**
     * Whether {@code taskObject} is a windowed bolt this class hands over: Storm's plain windowed executor (not
     * a subclass), prepared, with a count trigger, a count eviction and no timestamp extractor.
     */
    public boolean handsOver(Object taskObject) {
        return taskObject != null && taskObject.getClass() == executorClass && whyNot(taskObject) == null;
    }

    /** Why a prepared windowed executor's window is not handed over, or null when it is. */
    private String whyNot(Object executor) {
        try {
            if (timestampExtractor.get(executor) != null) {
                return "it is an event-time window (a timestamp extractor): its watermarks are not handed over";
            }
            Object trigger = triggerPolicy.get(executor);
            Object eviction = evictionPolicy.get(executor);
            if (trigger == null || eviction == null || windowManager.get(executor) == null) {
                return "it is not prepared yet";
            }
            if (trigger.getClass() != CountTriggerPolicy.class || eviction.getClass() != CountEvictionPolicy.class) {
                return "its window is time-based (" + trigger.getClass().getSimpleName() + ", "
                       + eviction.getClass().getSimpleName() + "): only count-based windows are handed over";
            }
            return null;
        } catch (IllegalAccessException e) {
            return "reading it failed: " + e.getMessage();
        }
    }

    private WindowManager<?> manager(Object executor) throws IllegalAccessException {
        if (executor == null || executor.getClass() != executorClass) {
            throw new IllegalStateException("it is not Storm's plain windowed bolt executor");
        }
        String why = whyNot(executor);
        if (why != null) {
            throw new IllegalStateException(why);
        }
        return (WindowManager<?>) windowManager.get(executor);
    }

    /**
     * The old instance's window, read without changing anything (a handoff that fails later leaves the instance
     * going on as before).
     *
     * @throws IllegalStateException why this executor's window is not handed over
     */
    public WindowSnapshot capture(Object executor) {
        try {
            WindowManager<?> m = manager(executor);
            Set<?> last = (Set<?>) lastWindow.get(m);
            List<WindowSnapshot.Event> events = new ArrayList<>();
            for (Object o : (Collection<?>) queue.get(m)) {
                Event<?> e = (Event<?>) o;
                if (e.isWatermark()) {
                    throw new IllegalStateException("its window holds a watermark");
                }
                events.add(new WindowSnapshot.Event(tuple(e.get()), e.getTimestamp(), last.contains(e)));
            }
            List<WindowSnapshot.WindowTuple> gone = new ArrayList<>();
            for (Object t : (List<?>) expired.get(m)) {
                gone.add(tuple(t));
            }
            Object trigger = triggerPolicy.get(executor);
            Object eviction = evictionPolicy.get(executor);
            return new WindowSnapshot(events, gone, ((AtomicInteger) sinceCompaction.get(m)).get(),
                                      ((CountTriggerPolicy<?>) trigger).getState(),
                                      ((CountEvictionPolicy<?>) eviction).getState());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("reading the windowed bolt failed: " + e.getMessage(), e);
        }
    }

    private static WindowSnapshot.WindowTuple tuple(Object tuple) {
        if (!(tuple instanceof TupleImpl t)) {
            throw new IllegalStateException("a window tuple is a " + tuple.getClass().getName() + ", not a TupleImpl");
        }
        return new WindowSnapshot.WindowTuple(t.getSourceComponent(), t.getSourceTask(), t.getSourceStreamId(),
                                              t.getValues(), t.getMessageId().getAnchorsToIds(), t.getAckVal());
    }

    /**
     * Installs {@code s} into a new, prepared executor whose window is still empty: the events (tuples that ack
     * as the originals would when they leave the window), the last window's membership, the expired tuples and
     * the counters. Everything is built before anything is set, so a refused install leaves the window empty.
     *
     * @param context the worker's topology context (the tuples are rebuilt against it)
     * @throws IllegalStateException why it could not be installed
     */
    public void restore(Object executor, WindowSnapshot s, GeneralTopologyContext context) {
        try {
            WindowManager<?> m = manager(executor);
            @SuppressWarnings("unchecked")
            Collection<Object> liveQueue = (Collection<Object>) queue.get(m);
            if (!liveQueue.isEmpty()) {
                throw new IllegalStateException("the new instance's window already holds " + liveQueue.size()
                                                + " events");
            }
            List<Object> events = new ArrayList<>(s.events().size());
            List<Object> inLast = new ArrayList<>();
            for (WindowSnapshot.Event e : s.events()) {
                Object event = newEvent.newInstance(tuple(e.tuple(), context), e.timestamp());
                events.add(event);
                if (e.inLastWindow()) {
                    inLast.add(event);
                }
            }
            List<Tuple> gone = new ArrayList<>();
            for (WindowSnapshot.WindowTuple t : s.expired()) {
                gone.add(tuple(t, context));
            }
            liveQueue.addAll(events);
            @SuppressWarnings("unchecked")
            Set<Object> liveLast = (Set<Object>) lastWindow.get(m);
            liveLast.clear();
            liveLast.addAll(inLast);
            @SuppressWarnings("unchecked")
            List<Object> liveExpired = (List<Object>) expired.get(m);
            liveExpired.clear();
            liveExpired.addAll(gone);
            ((AtomicInteger) sinceCompaction.get(m)).set(s.sinceCompaction());
            ((CountTriggerPolicy<?>) triggerPolicy.get(executor)).restoreState(s.triggerCount());
            ((CountEvictionPolicy<?>) evictionPolicy.get(executor)).restoreState(s.evictionCount());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("installing into the windowed bolt failed: " + e, e);
        }
    }

    /** A tuple that the bolt reads and the acker acks as the original: its values, anchors and ack value. */
    private static Tuple tuple(WindowSnapshot.WindowTuple w, GeneralTopologyContext context) {
        TupleImpl t = new TupleImpl(context, w.values(), w.component(), w.task(), w.stream(),
                                    MessageId.makeId(new HashMap<>(w.anchors())));
        t.updateAckVal(w.ackVal());
        return t;
    }
}
