package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nonstopstorm.wire.ExecutorId;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.topology.base.BaseStatefulWindowedBolt;
import org.apache.storm.topology.base.BaseWindowedBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.windowing.TupleWindow;
import org.junit.jupiter.api.Test;

class MoveRulesTest {
    private static final Path CASES = Path.of("../../tests/vectors/move_rules/cases.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everySharedCaseGivesTheExpectedComponentsAndReasonCodes() throws IOException {
        JsonNode cases = JSON.readTree(CASES.toFile()).get("cases");
        assertTrue(cases.size() >= 8);
        for (JsonNode c : cases) {
            Map<String, List<String>> inputs = new TreeMap<>();
            c.get("inputs").fields().forEachRemaining(e -> {
                List<String> streams = new ArrayList<>();
                e.getValue().forEach(s -> streams.add(s.asText()));
                inputs.put(e.getKey(), streams);
            });
            @SuppressWarnings("unchecked")
            Map<String, Object> conf = JSON.convertValue(c.get("conf"), Map.class);
            Map<String, String> got = new TreeMap<>();
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> componentConfs = c.has("component_conf")
                ? JSON.convertValue(c.get("component_conf"), Map.class) : Map.of();
            MoveRules.unmovable(inputs, conf, componentConfs).forEach((k, v) -> got.put(k, v.substring(0, v.indexOf(':'))));
            @SuppressWarnings("unchecked")
            Map<String, String> want = new TreeMap<>(JSON.convertValue(c.get("unmovable"), Map.class));
            assertEquals(want, got, c.get("name").asText());
        }
    }

    @Test
    void stormsBuilderPuts_stateful_bolts_on_the_checkpoint_stream_and_the_rule_sees_them() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new Numbers());
        b.setBolt("state", new Counting(), 2).shuffleGrouping("numbers");
        b.setBolt("print", new Printing()).shuffleGrouping("numbers");
        Map<String, Set<String>> streams = MoveRules.inputStreams(b.createTopology());
        assertTrue(streams.containsKey(MoveRules.CHECKPOINT_SPOUT), streams.toString());
        assertTrue(streams.get("state").contains(MoveRules.CHECKPOINT_STREAM), streams.toString());
        // This Storm's stateful bolts are handed over: only the checkpoint spout stays.
        assertEquals(Set.of(MoveRules.CHECKPOINT_SPOUT), MoveRules.unmovable(streams, Map.of()).keySet());
        assertEquals(Set.of(MoveRules.CHECKPOINT_SPOUT, "state", "print"),
                     MoveRules.unmovable(streams, Map.of(MoveRules.HANDOFF_KEY, false)).keySet());
        assertEquals(Map.of(), MoveRules.inputStreams(null));
    }

    @Test
    void aStatefulWindowedBoltWithTheInMemoryProviderStaysRefused() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new Numbers());
        b.setBolt("window", new Windowed().withTumblingWindow(new BaseWindowedBolt.Count(3))).shuffleGrouping("numbers");
        b.setBolt("state", new Counting()).shuffleGrouping("numbers");
        StormTopology t = b.createTopology();
        assertEquals(Set.of("window"), MoveRules.windowedBolts(t));
        Map<String, String> out = MoveRules.unmovable(MoveRules.inputStreams(t), Map.of(), MoveRules.windowedBolts(t),
                                                      Optional.empty());
        assertEquals(Set.of(MoveRules.CHECKPOINT_SPOUT, "window"), out.keySet());
        assertTrue(out.get("window").startsWith("in_memory_state: a stateful windowed bolt"), out.get("window"));
        Map<String, Object> redis = Map.of(MoveRules.STATE_PROVIDER_KEY, "org.apache.storm.redis.state.RedisKeyValueStateProvider");
        assertEquals(Map.of(), MoveRules.unmovable(MoveRules.inputStreams(t), redis, MoveRules.windowedBolts(t),
                                                   Optional.empty()));
    }

    @Test
    void anEventTimeWindowIsRefusedAndACountOrProcessingTimeWindowMoves() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("numbers", new Numbers());
        b.setBolt("late", new PlainWindowed().withTumblingWindow(new BaseWindowedBolt.Count(3)).withTimestampField("n")
                               .withLateTupleStream("late")).shuffleGrouping("numbers");
        b.setBolt("lag", new PlainWindowed().withWindow(BaseWindowedBolt.Duration.seconds(4))
                              .withTimestampField("n").withLag(BaseWindowedBolt.Duration.seconds(1)))
            .shuffleGrouping("numbers");
        b.setBolt("count", new PlainWindowed().withWindow(new BaseWindowedBolt.Count(30), new BaseWindowedBolt.Count(10)))
            .shuffleGrouping("numbers");
        b.setBolt("time", new PlainWindowed().withTumblingWindow(BaseWindowedBolt.Duration.seconds(2)))
            .shuffleGrouping("numbers");
        StormTopology t = b.createTopology();
        Map<String, Map<String, Object>> confs = MoveRules.boltConfs(t);
        assertEquals(Set.of("late", "lag", "count", "time"), MoveRules.windowedBolts(confs));
        assertEquals(Set.of("late", "lag"), MoveRules.eventTimeWindows(confs));
        Map<String, String> out = MoveRules.unmovable(MoveRules.inputStreams(t), Map.of(), confs);
        assertEquals(Set.of("late", "lag"), out.keySet());
        assertTrue(out.get("late").startsWith("event_time_window: a windowed bolt on event time")
                   && out.get("late").contains("topology.bolts.late.tuple.stream") && out.get("late").contains("rebalance"),
                   out.get("late"));
    }

    private static final class PlainWindowed extends BaseWindowedBolt {
        @Override
        public void execute(TupleWindow window) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // Storm's windowed executor declares the late-tuple stream itself
        }
    }

    private static final class Windowed extends BaseStatefulWindowedBolt<KeyValueState<String, Long>> {
        @Override
        public void initState(KeyValueState<String, Long> state) {
        }

        @Override
        public void execute(TupleWindow window) {
        }
    }

    @Test
    void aStormWhoseStatefulBoltsCannotBeHandedOverKeepsTheRefusalWithTheReason() {
        Map<String, Set<String>> streams = Map.of(MoveRules.CHECKPOINT_SPOUT, Set.of(), "state",
                                                  Set.of(MoveRules.CHECKPOINT_STREAM));
        Map<String, String> out = MoveRules.unmovable(streams, Map.of(), Set.of(), Optional.of("no field 'state'"));
        assertEquals(Set.of(MoveRules.CHECKPOINT_SPOUT, "state"), out.keySet());
        assertTrue(out.get("state").startsWith("in_memory_state: ") && out.get("state").contains("no field 'state'")
                   && out.get("state").contains("rebalance"), out.get("state"));
        assertEquals(Optional.empty(), MoveRules.statefulHandoffUnavailable());
    }

    @Test
    void aRefusalNamesTheFirstUnmovableExecutorItsComponentAndTheReason() {
        Map<ExecutorId, String> components = Map.of(new ExecutorId(1, 1), "numbers", new ExecutorId(2, 3), "state");
        Map<String, String> unmovable = Map.of("state", "in_memory_state: why");
        Optional<String> r = MoveRules.refusal(List.of(new ExecutorId(1, 1), new ExecutorId(2, 3)), components::get, unmovable);
        assertEquals(Optional.of("executor [2,3] (state) is not moved live: in_memory_state: why"), r);
        assertEquals(Optional.empty(), MoveRules.refusal(List.of(new ExecutorId(1, 1)), components::get, unmovable));
        assertEquals(Optional.empty(), MoveRules.refusal(List.of(new ExecutorId(9, 9)), components::get, unmovable));
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
