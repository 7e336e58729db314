package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.core.KeyRouter;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.grouping.CustomStreamGrouping;
import org.apache.storm.task.WorkerTopologyContext;
import org.apache.storm.tuple.Fields;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Maps Storm's custom-grouping calls onto a {@link KeyRouter}: the key is the values of the
 * configured fields (all values if none are configured), the worker index is the position of a task
 * among the edge's target tasks sorted ascending (so every source numbers workers alike).
 *
 * <p>Storm serialises the grouping into the topology and gives every source task its own instance;
 * the router is built lazily on the first tuple, when the source task id is known.
 */
public abstract class RoutingStreamGrouping implements CustomStreamGrouping {
    private static final long serialVersionUID = 1L;

    /** Seed shared by all sources of an edge; it must be equal everywhere for consistent routing. */
    public static final int DEFAULT_SEED = 0x2f6b_1c3d;

    private final List<String> keyFields;
    private transient int[] keyIndexes;
    private transient List<List<Integer>> choices;
    private transient EdgeContext edge;
    private transient KeyRouter router;

    protected RoutingStreamGrouping(List<String> keyFields) {
        this.keyFields = keyFields == null ? List.of() : List.copyOf(keyFields);
    }

    @Override
    public void prepare(WorkerTopologyContext context, GlobalStreamId stream, List<Integer> targetTasks) {
        if (targetTasks == null || targetTasks.isEmpty()) {
            throw new IllegalArgumentException(getClass().getSimpleName() + ": stream " + stream + " has no target tasks");
        }
        List<Integer> sorted = new ArrayList<>(targetTasks);
        Collections.sort(sorted);
        keyIndexes = keyIndexes(context.getComponentOutputFields(stream), stream);
        choices = new ArrayList<>(sorted.size());
        for (Integer task : sorted) {
            choices.add(List.of(task));
        }
        edge = new EdgeContext(stream.get_componentId(), stream.get_streamId(),
                context.getComponentId(sorted.get(0)), List.copyOf(sorted), context.getStormId(),
                context.getConf() == null ? Map.of() : context.getConf());
        router = null;
    }

    @Override
    public List<Integer> chooseTasks(int sourceTask, List<Object> values) {
        if (router == null) {
            router = createRouter(edge, sourceTask);
        }
        beforeRoute(sourceTask);
        return choices.get(router.route(KeyEncoding.encode(values, keyIndexes)));
    }

    /** Builds the routing core for one source task. */
    protected abstract KeyRouter createRouter(EdgeContext edge, int sourceTask);

    /** Hook run before each routing decision (CG applies arrived load signals here). */
    protected void beforeRoute(int sourceTask) {
    }

    private int[] keyIndexes(Fields output, GlobalStreamId stream) {
        if (keyFields.isEmpty()) {
            return null;
        }
        int[] indexes = new int[keyFields.size()];
        for (int i = 0; i < indexes.length; i++) {
            String field = keyFields.get(i);
            if (!output.contains(field)) {
                throw new IllegalArgumentException(getClass().getSimpleName() + ": key field '" + field
                        + "' is not an output field of stream " + stream.get_componentId() + ":" + stream.get_streamId()
                        + " (fields: " + output.toList() + ")");
            }
            indexes[i] = output.fieldIndex(field);
        }
        return indexes;
    }

    /**
     * What a router needs to know about the edge it serves.
     *
     * @param targetTasks the target tasks sorted ascending (worker index = position)
     * @param conf        the topology conf the worker runs with
     */
    public record EdgeContext(String sourceComponent, String streamId, String targetComponent,
                              List<Integer> targetTasks, String topologyId, Map<String, Object> conf) {
        public int workers() {
            return targetTasks.size();
        }

        /** Name of the edge's load-signal channel: {@code <source>:<stream>-><target>}. */
        public String channelName() {
            return SignalChannels.name(sourceComponent, streamId, targetComponent);
        }
    }
}
