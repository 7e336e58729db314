package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.scheduling.model.ExecutorId;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.spout.CheckpointSpout;

/**
 * Refuses live moves of a stateful topology's checkpointed executors while its state lives in Storm's
 * in-memory provider.
 *
 * <p>Why: Storm checkpoints in two phases, PREPARE then COMMIT, each sent to every stateful task. A live
 * move can land between them: the old instance prepares transaction t, the new one receives its COMMIT.
 * A persistent provider (Redis, HBase, ...) keeps the prepared state in its store, so the new instance
 * commits it, fails the next PREPARE and is re-initialised by Storm's recovery. The in-memory provider
 * keeps the prepared state in the old JVM only: the new instance's commit throws, the checkpoint spout
 * retries the COMMIT, which now also fails in every task that had committed t, and checkpointing (and
 * with it the acking of every tuple) stops for good. Storm's own rebalance restarts every task and so
 * starts the protocol afresh. The checkpoint spout itself keeps its transaction state in the same
 * provider, so it is gated too. Pure ({@link #componentsOf} and {@link #checkpointed} only read Storm's
 * topology description).
 */
public final class StatefulMoveGate {
    public static final String STATE_PROVIDER_KEY = "topology.state.provider";
    public static final String IN_MEMORY_PROVIDER = "org.apache.storm.state.InMemoryKeyValueStateProvider";

    private StatefulMoveGate() {
    }

    /** The components that take part in checkpointing: the checkpoint spout and every bolt fed by its stream. */
    public static Set<String> checkpointed(StormTopology topology) {
        Set<String> out = new TreeSet<>();
        if (topology == null) {
            return out;
        }
        if (topology.get_spouts() != null && topology.get_spouts().containsKey(CheckpointSpout.CHECKPOINT_COMPONENT_ID)) {
            out.add(CheckpointSpout.CHECKPOINT_COMPONENT_ID);
        }
        if (topology.get_bolts() != null) {
            for (Map.Entry<String, Bolt> b : topology.get_bolts().entrySet()) {
                Map<GlobalStreamId, ?> inputs = b.getValue().get_common().get_inputs();
                if (inputs != null && inputs.keySet().stream()
                        .anyMatch(s -> CheckpointSpout.CHECKPOINT_STREAM_ID.equals(s.get_streamId()))) {
                    out.add(b.getKey());
                }
            }
        }
        return out;
    }

    /** An executor's component in this topology (null if it has none). */
    public static Function<ExecutorId, String> componentsOf(TopologyDetails td) {
        Map<ExecutorId, String> byId = new HashMap<>();
        td.getExecutorToComponent().forEach((e, c) -> byId.put(new ExecutorId(e.getStartTask(), e.getEndTask()), c));
        return byId::get;
    }

    /** True when the topology's state lives in Storm's in-memory provider (the default when none is set). */
    public static boolean inMemory(Object provider) {
        return provider == null || provider.toString().isBlank() || IN_MEMORY_PROVIDER.equals(provider.toString().trim());
    }

    /**
     * @param moved        the executors that would change slot
     * @param componentOf  an executor's component (null if unknown)
     * @param checkpointed what {@link #checkpointed} returned for the topology
     * @param provider     the topology's {@value #STATE_PROVIDER_KEY} (null if unset)
     * @return why the moves are refused, or empty
     */
    public static Optional<String> refusal(Collection<ExecutorId> moved, Function<ExecutorId, String> componentOf,
                                           Set<String> checkpointed, Object provider) {
        if (checkpointed.isEmpty() || !inMemory(provider)) {
            return Optional.empty();
        }
        for (ExecutorId e : moved) {
            String component = componentOf.apply(e);
            if (component != null && checkpointed.contains(component)) {
                return Optional.of("executor [" + e.startTask() + "," + e.endTask() + "] (" + component + ") takes part in "
                    + "Storm's state checkpointing and the topology keeps its state in Storm's in-memory provider ("
                    + STATE_PROVIDER_KEY + (provider == null ? " unset" : " = " + provider) + "): a live move between "
                    + "a checkpoint's PREPARE and COMMIT would stop checkpointing for good. Use a persistent state "
                    + "provider, or Storm's rebalance");
            }
        }
        return Optional.empty();
    }
}
