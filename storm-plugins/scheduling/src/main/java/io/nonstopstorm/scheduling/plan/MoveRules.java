package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.migration.state.HandoffLimits;
import io.nonstopstorm.migration.worker.StatefulBoltAccess;
import io.nonstopstorm.wire.ExecutorId;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.storm.Config;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.utils.Utils;

/**
 * Which of a topology's components are not moved live, and why: the one rule the plan-following scheduler
 * and the Nimbus-side schedulers apply to every live move (the controller applies the same rule,
 * {@code pycontrol/move_rules.py}, to what it proposes; shared cases in tests/vectors/move_rules).
 *
 * <ul>
 *   <li>{@value #PINNED}: the operator pins components with the topology conf {@value #PINNED_KEY} (a list
 *       of component ids), e.g. a spout that keeps its read position in memory. A value that is not a list
 *       of strings pins every component ({@value #BAD_PINNED}): nothing moves on a misread intent.</li>
 *   <li>{@value #IN_MEMORY_STATE}: while the topology keeps its state in Storm's in-memory provider
 *       ({@value #STATE_PROVIDER_KEY} unset or {@value #IN_MEMORY_PROVIDER}), the checkpoint spout (its own
 *       transaction lives there and is not handed over), and every bolt on its stream when state handoff is
 *       off ({@value #HANDOFF_KEY} false or malformed, or this Storm's stateful bolt executor is not the one
 *       {@code StatefulBoltAccess} reads). Storm checkpoints in two phases; without the handoff, a move that
 *       lands between a transaction's PREPARE (old instance) and COMMIT (new instance) leaves the prepared
 *       state in the old JVM, the new instance's commit throws, the checkpoint spout retries that COMMIT for
 *       ever and it then fails in every task that had committed: checkpointing, and the acking of every
 *       tuple, stop for good. With the handoff the new instance gets the prepared state (docs/state-handoff.md),
 *       except for a stateful windowed bolt (its component conf sets a window length), whose window is not
 *       handed over: it stays refused. A persistent provider keeps the prepared state in its store; those moves
 *       are allowed.</li>
 *   <li>{@value #EVENT_TIME_WINDOW}: a windowed bolt on event time, known by its component conf setting a
 *       late-tuple stream, a maximum lag or a watermark interval ({@link #EVENT_TIME_KEYS}).
 *       A live move hands a count-based window over ({@code WindowedBoltAccess}), but not an event-time one:
 *       its new instance would start without the window's tuples and watermarks, and their replays, older
 *       than the new watermark, would come back late and be dropped (or sent to the late-tuple stream).
 *       A timestamp extractor set without any of these keys is not in the conf: the worker then moves the bolt
 *       without its window, as before the handoff existed.</li>
 * </ul>
 * Pure, apart from {@link #unmovable(TopologyDetails)}, which reads Storm's description of the topology.
 */
public final class MoveRules {
    public static final String PINNED_KEY = "nonstop.migration.pinned";
    public static final String STATE_PROVIDER_KEY = "topology.state.provider";
    public static final String IN_MEMORY_PROVIDER = "org.apache.storm.state.InMemoryKeyValueStateProvider";
    public static final String CHECKPOINT_STREAM = "$checkpoint";
    public static final String CHECKPOINT_SPOUT = "$checkpointspout";
    public static final String HANDOFF_KEY = HandoffLimits.HANDOFF;

    public static final String PINNED = "pinned";
    public static final String BAD_PINNED = "bad_pinned";
    public static final String IN_MEMORY_STATE = "in_memory_state";
    public static final String EVENT_TIME_WINDOW = "event_time_window";
    /** Component conf keys that only an event-time window sets. */
    public static final List<String> EVENT_TIME_KEYS = List.of(Config.TOPOLOGY_BOLTS_LATE_TUPLE_STREAM,
                                                               Config.TOPOLOGY_BOLTS_TUPLE_TIMESTAMP_MAX_LAG_MS,
                                                               Config.TOPOLOGY_BOLTS_WATERMARK_EVENT_INTERVAL_MS);

    private MoveRules() {
    }

    /**
     * @param inputStreams every component of the topology with the streams it consumes (spouts: none)
     * @param conf         the topology's conf
     * @return component to the reason it is not moved live ("code: explanation"); absent components move
     */
    public static SortedMap<String, String> unmovable(Map<String, ? extends Collection<String>> inputStreams,
                                                      Map<String, Object> conf) {
        return unmovable(inputStreams, conf, Set.of(), statefulHandoffUnavailable());
    }

    /**
     * {@link #unmovable(Map, Map)} knowing each component's own conf (a windowed bolt is known by its own).
     *
     * @param componentConfs component to its conf; a component without one is not windowed
     */
    public static SortedMap<String, String> unmovable(Map<String, ? extends Collection<String>> inputStreams,
                                                      Map<String, Object> conf,
                                                      Map<String, ? extends Map<String, Object>> componentConfs) {
        return unmovable(inputStreams, conf, windowedBolts(componentConfs), eventTimeWindows(componentConfs),
                         statefulHandoffUnavailable());
    }

    /**
     * @param windowed           components that are windowed bolts (their window is not handed over)
     * @param handoffUnavailable why this Storm's stateful bolts cannot be handed over in a move, or empty
     */
    public static SortedMap<String, String> unmovable(Map<String, ? extends Collection<String>> inputStreams,
                                                      Map<String, Object> conf, Set<String> windowed,
                                                      Optional<String> handoffUnavailable) {
        return unmovable(inputStreams, conf, windowed, Set.of(), handoffUnavailable);
    }

    /**
     * @param windowed           components that are windowed bolts
     * @param eventTime          the windowed bolts among them on event time (their window is not handed over)
     * @param handoffUnavailable why this Storm's stateful bolts cannot be handed over in a move, or empty
     */
    public static SortedMap<String, String> unmovable(Map<String, ? extends Collection<String>> inputStreams,
                                                      Map<String, Object> conf, Set<String> windowed,
                                                      Set<String> eventTime, Optional<String> handoffUnavailable) {
        SortedMap<String, String> out = new TreeMap<>();
        for (String c : eventTime) {
            if (inputStreams.containsKey(c)) {
                out.put(c, EVENT_TIME_WINDOW + ": a windowed bolt on event time (its component conf sets one of "
                    + EVENT_TIME_KEYS + "): the tuples and watermarks of its window are not handed over in a live "
                    + "move, and their replays would reach the new instance late and be dropped. Use Storm's "
                    + "rebalance");
            }
        }
        Object provider = conf.get(STATE_PROVIDER_KEY);
        if (provider == null || provider.toString().isBlank() || IN_MEMORY_PROVIDER.equals(provider.toString().trim())) {
            String where = "the topology keeps its state in Storm's in-memory provider (" + STATE_PROVIDER_KEY
                + (provider == null ? " unset" : " = " + provider) + ")";
            String spout = IN_MEMORY_STATE + ": the checkpoint spout's transaction is not handed over and " + where
                + ". Use a persistent state provider, or Storm's rebalance";
            Optional<String> noHandoff = handoffUnavailable.isPresent() ? handoffUnavailable : handoffOff(conf);
            String bolt = noHandoff.map(off -> IN_MEMORY_STATE + ": it takes part in Storm's state checkpointing, "
                + where + ", and state handoff is off (" + off + "); a live move between a checkpoint's PREPARE and "
                + "COMMIT would stop checkpointing for good. Use a persistent state provider, or Storm's rebalance")
                .orElse(null);
            String window = IN_MEMORY_STATE + ": a stateful windowed bolt: " + where + " and the tuples in its "
                + "window are not handed over; a live move between a checkpoint's PREPARE and COMMIT would stop "
                + "checkpointing for good. Use a persistent state provider, or Storm's rebalance";
            for (Map.Entry<String, ? extends Collection<String>> c : inputStreams.entrySet()) {
                if (c.getKey().equals(CHECKPOINT_SPOUT)) {
                    out.put(c.getKey(), spout);
                } else if (c.getValue().contains(CHECKPOINT_STREAM)) {
                    if (bolt != null) {
                        out.put(c.getKey(), bolt);
                    } else if (windowed.contains(c.getKey())) {
                        out.put(c.getKey(), window);
                    }
                }
            }
        }
        Object pinned = conf.get(PINNED_KEY);
        if (pinned == null) {
            return out;
        }
        if (!(pinned instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            for (String c : inputStreams.keySet()) {
                out.put(c, BAD_PINNED + ": " + PINNED_KEY + " must be a list of component ids, got '" + pinned
                    + "'; every component stays where it is until it is");
            }
            return out;
        }
        for (Object c : list) {
            if (inputStreams.containsKey(c)) {
                out.put((String) c, PINNED + ": the topology pins it (" + PINNED_KEY + ")");
            }
        }
        return out;
    }

    /** Why the topology's conf turns state handoff off, or empty when it is on (the worker reads it alike). */
    static Optional<String> handoffOff(Map<String, Object> conf) {
        try {
            return HandoffLimits.enabled(conf) ? Optional.empty() : Optional.of(HANDOFF_KEY + " = false");
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Why this Nimbus's Storm cannot hand a stateful bolt over (the agent's jar absent, another executor). */
    static Optional<String> statefulHandoffUnavailable() {
        try {
            return StatefulBoltAccess.THIS_STORM.why();
        } catch (LinkageError e) {
            return Optional.of("the migration agent's jar is not on Nimbus's classpath");
        }
    }

    /** Why these moves are refused (the first unmovable executor's reason), or empty. */
    public static Optional<String> refusal(Collection<ExecutorId> moved, Function<ExecutorId, String> componentOf,
                                           Map<String, String> unmovable) {
        for (ExecutorId e : new TreeSet<>(moved)) {
            String component = componentOf.apply(e);
            String why = component == null ? null : unmovable.get(component);
            if (why != null) {
                return Optional.of("executor [" + e.start() + "," + e.end() + "] (" + component
                                   + ") is not moved live: " + why);
            }
        }
        return Optional.empty();
    }

    /** {@link #refusal} for a running topology as Nimbus describes it. */
    public static Optional<String> refusal(TopologyDetails td, Collection<ExecutorId> moved) {
        if (moved.isEmpty()) {
            return Optional.empty();
        }
        Map<ExecutorId, String> byId = new HashMap<>();
        td.getExecutorToComponent().forEach((e, c) -> byId.put(new ExecutorId(e.getStartTask(), e.getEndTask()), c));
        return refusal(moved, byId::get, unmovable(td));
    }

    /** {@link #unmovable(Map, Map)} of a running topology. */
    public static SortedMap<String, String> unmovable(TopologyDetails td) {
        return unmovable(inputStreams(td.getTopology()), td.getConf() == null ? Map.of() : td.getConf(),
                         boltConfs(td.getTopology()));
    }

    /** Bolts whose component conf sets a window length: Storm's windowed bolts, stateful or not. */
    static Set<String> windowedBolts(StormTopology topology) {
        return windowedBolts(boltConfs(topology));
    }

    static Set<String> windowedBolts(Map<String, ? extends Map<String, Object>> componentConfs) {
        Set<String> out = new TreeSet<>();
        componentConfs.forEach((c, conf) -> {
            if (conf != null && (conf.containsKey(Config.TOPOLOGY_BOLTS_WINDOW_LENGTH_COUNT)
                                 || conf.containsKey(Config.TOPOLOGY_BOLTS_WINDOW_LENGTH_DURATION_MS))) {
                out.add(c);
            }
        });
        return out;
    }

    /** Windowed bolts whose component conf sets a key only event-time windows set. */
    static Set<String> eventTimeWindows(Map<String, ? extends Map<String, Object>> componentConfs) {
        Set<String> out = new TreeSet<>();
        Set<String> windowed = windowedBolts(componentConfs);
        componentConfs.forEach((c, conf) -> {
            if (windowed.contains(c) && EVENT_TIME_KEYS.stream().anyMatch(conf::containsKey)) {
                out.add(c);
            }
        });
        return out;
    }

    /** Each bolt's own conf, as Storm keeps it in the topology (a bolt without a readable one: none). */
    static Map<String, Map<String, Object>> boltConfs(StormTopology topology) {
        Map<String, Map<String, Object>> out = new TreeMap<>();
        if (topology == null || topology.get_bolts() == null) {
            return out;
        }
        for (Map.Entry<String, Bolt> b : topology.get_bolts().entrySet()) {
            ComponentCommon common = b.getValue().get_common();
            String json = common == null ? null : common.get_json_conf();
            try {
                Map<String, Object> conf = json == null ? null : Utils.parseJson(json);
                if (conf != null) {
                    out.put(b.getKey(), conf);
                }
            } catch (RuntimeException e) {
                // Nimbus accepted the topology; a conf it cannot read has no window either
            }
        }
        return out;
    }

    /** Every component of Storm's topology with the stream ids it consumes. */
    static Map<String, Set<String>> inputStreams(StormTopology topology) {
        Map<String, Set<String>> out = new TreeMap<>();
        if (topology == null) {
            return out;
        }
        if (topology.get_spouts() != null) {
            topology.get_spouts().keySet().forEach(s -> out.put(s, Set.of()));
        }
        if (topology.get_bolts() != null) {
            for (Map.Entry<String, Bolt> b : topology.get_bolts().entrySet()) {
                ComponentCommon common = b.getValue().get_common();
                Set<String> streams = new TreeSet<>();
                if (common != null && common.get_inputs() != null) {
                    for (GlobalStreamId s : common.get_inputs().keySet()) {
                        streams.add(s.get_streamId());
                    }
                }
                out.put(b.getKey(), streams);
            }
        }
        return out;
    }
}
