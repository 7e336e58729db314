package io.nonstopstorm.migration.worker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.spout.CheckpointSpout;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/** Parts of a small topology for tests that drive Storm's own bolt executors without a worker. */
public final class StormTestParts {
    private StormTestParts() {
    }

    /**
     * What an executor acked and failed through Storm's collector, each tuple as its anchors XOR its ack value
     * (what the acker would receive); a checkpoint tuple's ack is left out. Emits go nowhere.
     */
    public static final class Acks implements IOutputCollector {
        public final List<Map<Long, Long>> acked = new ArrayList<>();
        public final List<Map<Long, Long>> failed = new ArrayList<>();

        public static Map<Long, Long> payload(Tuple t) {
            Map<Long, Long> out = new HashMap<>();
            t.getMessageId().getAnchorsToIds().forEach((root, id) -> out.put(root, id ^ ((TupleImpl) t).getAckVal()));
            return out;
        }

        @Override
        public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
            return List.of();
        }

        @Override
        public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        }

        @Override
        public void ack(Tuple input) {
            if (!CheckpointSpout.isCheckpoint(input)) {
                acked.add(payload(input));
            }
        }

        @Override
        public void fail(Tuple input) {
            failed.add(payload(input));
        }

        @Override
        public void resetTimeout(Tuple input) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void reportError(Throwable error) {
        }
    }

    /** A spout that emits nothing, declaring one field: the upstream component of the bolt under test. */
    public static final class NoSpout extends BaseRichSpout {
        private final String field;

        public NoSpout(String field) {
            this.field = field;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields(field));
        }
    }

    /** Task {@code task}'s context in {@code topology}, whose tasks run on one worker at port 6700. */
    public static TopologyContext context(StormTopology topology, Map<String, Object> conf,
                                          Map<Integer, String> taskToComponent,
                                          Map<String, Map<String, Fields>> fields, int task) {
        Map<String, List<Integer>> tasks = new HashMap<>();
        new TreeMap<>(taskToComponent).forEach((t, c) -> tasks.computeIfAbsent(c, k -> new ArrayList<>()).add(t));
        return new TopologyContext(topology, conf, taskToComponent, tasks, fields, new HashMap<>(), "t-1", null, null,
                                   task, 6700, List.of(task), new HashMap<>(), new HashMap<>(), new HashMap<>(),
                                   new HashMap<>(), new AtomicBoolean(), null);
    }
}
