package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.ExecutorId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

class StatefulMoveGateTest {
    private static final ExecutorId SPOUT = new ExecutorId(1, 1);
    private static final ExecutorId STATE = new ExecutorId(2, 2);
    private static final ExecutorId PRINT = new ExecutorId(3, 3);
    private static final ExecutorId CHECKPOINT = new ExecutorId(4, 4);
    private static final Map<ExecutorId, String> COMPONENTS =
        Map.of(SPOUT, "numbers", STATE, "state", PRINT, "print", CHECKPOINT, "$checkpointspout");

    private static Optional<String> refusal(List<ExecutorId> moved, Set<String> checkpointed, Object provider) {
        return StatefulMoveGate.refusal(moved, COMPONENTS::get, checkpointed, provider);
    }

    @Test
    void theCheckpointSpoutAndTheBoltsItFeedsAreCheckpointedOthersAreNot() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new Numbers());
        b.setBolt("state", new Counting(), 2).shuffleGrouping("numbers");
        b.setBolt("print", new Printing()).shuffleGrouping("numbers");
        StormTopology stateful = b.createTopology();
        // Storm's builder wires every bolt of a topology with a stateful bolt to the checkpoint stream.
        assertTrue(StatefulMoveGate.checkpointed(stateful).containsAll(Set.of("$checkpointspout", "state")));

        TopologyBuilder plain = new TopologyBuilder();
        plain.setSpout("numbers", new Numbers());
        plain.setBolt("print", new Printing()).shuffleGrouping("numbers");
        assertEquals(Set.of(), StatefulMoveGate.checkpointed(plain.createTopology()));
        assertEquals(Set.of(), StatefulMoveGate.checkpointed(null));
    }

    @Test
    void aCheckpointedExecutorDoesNotMoveLiveWhileItsStateIsInMemoryAndTheReasonSaysWhy() {
        Set<String> checkpointed = Set.of("$checkpointspout", "state");
        for (Object provider : new Object[] {null, "", StatefulMoveGate.IN_MEMORY_PROVIDER}) {
            Optional<String> r = refusal(List.of(SPOUT, STATE), checkpointed, provider);
            assertTrue(r.isPresent(), "provider " + provider);
            assertTrue(r.get().contains("[2,2] (state)") && r.get().contains("in-memory provider")
                       && r.get().contains("rebalance"), r.get());
        }
        assertTrue(refusal(List.of(CHECKPOINT), checkpointed, null).orElseThrow().contains("($checkpointspout)"));
    }

    @Test
    void everythingElseMovesOtherExecutorsAPersistentProviderOrATopologyWithoutState() {
        Set<String> checkpointed = Set.of("$checkpointspout", "state");
        assertEquals(Optional.empty(), refusal(List.of(SPOUT, PRINT), checkpointed, null));
        assertEquals(Optional.empty(),
                     refusal(List.of(STATE), checkpointed, "org.apache.storm.redis.state.RedisKeyValueStateProvider"));
        assertEquals(Optional.empty(), refusal(List.of(STATE, new ExecutorId(9, 9)), Set.of(), null));
        assertEquals(Optional.empty(), refusal(List.of(), checkpointed, null));
    }

    private static final class Numbers extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> conf, org.apache.storm.task.TopologyContext context,
                         org.apache.storm.spout.SpoutOutputCollector collector) {
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new org.apache.storm.tuple.Fields("n"));
        }
    }

    private static final class Counting extends BaseStatefulBolt<KeyValueState<String, Long>> {
        @Override
        public void initState(KeyValueState<String, Long> state) {
        }

        @Override
        public void execute(Tuple input) {
        }
    }

    private static final class Printing extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
