package io.nonstopstorm.metrics.hook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.nonstopstorm.metrics.core.TaskCounters;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.hooks.info.BoltExecuteInfo;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.junit.jupiter.api.Test;

class TrafficHookTest {
    private static GeneralTopologyContext context(StormTopology topology) {
        Map<Integer, String> taskToComponent = Map.of(1, "keys", 2, "count", 3, "count", 4, "sink", -1, "__system");
        Map<String, List<Integer>> componentTasks = Map.of("keys", List.of(1), "count", List.of(2, 3), "sink", List.of(4),
            "__system", List.of(-1));
        Map<String, Map<String, Fields>> fields = new HashMap<>();
        fields.put("keys", Map.of("default", new Fields("word")));
        fields.put("__system", Map.of("__tick", new Fields("rate_secs")));
        return new GeneralTopologyContext(topology, Map.of("storm.cluster.mode", "distributed"), taskToComponent,
            componentTasks, fields, "t-1");
    }

    private static Tuple tuple(String component, int task, String stream) {
        return new TupleImpl(context(new StormTopology()), List.of("x"), component, task, stream);
    }

    @Test
    void countsUserEmitsPerDestinationAndSkipsStormsStreams() {
        TaskCounters c = new TaskCounters(1, "keys", 4);
        TrafficHook hook = new TrafficHook(c);
        hook.emit(new EmitInfo(List.of("a"), "default", 1, List.of(2)));
        hook.emit(new EmitInfo(List.of("b"), "default", 1, List.of(3, 4)));
        hook.emit(new EmitInfo(List.of(1L, 2L), "__ack_init", 1, List.of(4)));
        hook.emit(new EmitInfo(List.of("m"), "__metrics", 1, List.of(4)));
        hook.emit(new EmitInfo(List.of("d"), "default", 1, null));
        assertEquals(2, c.emitted());
        assertEquals(1, c.sentTo(2));
        assertEquals(1, c.sentTo(3));
        assertEquals(1, c.sentTo(4), "the ack_init to the acker is not traffic");
    }

    @Test
    void countsExecutesOfUserTuplesOnly() {
        TaskCounters c = new TaskCounters(2, "count", 4);
        TrafficHook hook = new TrafficHook(c);
        hook.boltExecute(new BoltExecuteInfo(tuple("keys", 1, "default"), 2, null));
        hook.boltExecute(new BoltExecuteInfo(tuple("__system", -1, "__tick"), 2, null));
        assertEquals(1, c.executed());
    }

    @Test
    void sampledExecuteTimesAreSummedAndUnsampledOnesSkipped() {
        TaskCounters c = new TaskCounters(2, "count", 4);
        TrafficHook hook = new TrafficHook(c);
        hook.boltExecute(new BoltExecuteInfo(tuple("keys", 1, "default"), 2, 3L));
        hook.boltExecute(new BoltExecuteInfo(tuple("keys", 1, "default"), 2, -1L)); // Storm: not sampled
        hook.boltExecute(new BoltExecuteInfo(tuple("keys", 1, "default"), 2, 0L));
        hook.boltExecute(new BoltExecuteInfo(tuple("__system", -1, "__tick"), 2, 9L));
        assertEquals(3, c.executed());
        assertEquals(2, c.executeSamples());
        assertEquals(3, c.executeSampleMs());
    }

    @Test
    void aHookThatNeverPreparedCountsNothingAndDoesNotFail() {
        TrafficHook hook = new TrafficHook();
        hook.emit(new EmitInfo(List.of("a"), "default", 1, List.of(2)));
        hook.boltExecute(new BoltExecuteInfo(tuple("keys", 1, "default"), 2, null));
        hook.cleanup();
    }

    static class CountBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word", "n"));
        }
    }

    @Test
    void theComponentDagWithGroupingsIsReadFromTheTopology() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("keys", new TestWordSpout(), 1);
        b.setBolt("count", new CountBolt(), 2).fieldsGrouping("keys", new Fields("word"));
        b.setBolt("sink", new CountBolt(), 1).shuffleGrouping("count").allGrouping("keys");
        List<MetricsDocument.Component> comps = TopologyShapeReader.read(context(b.createTopology()));
        assertEquals(List.of(
            new MetricsDocument.Component("count", "bolt", List.of(2, 3),
                List.of(new MetricsDocument.Input("keys", "default", "fields", List.of("word")))),
            new MetricsDocument.Component("keys", "spout", List.of(1), List.of()),
            new MetricsDocument.Component("sink", "bolt", List.of(4), List.of(
                new MetricsDocument.Input("count", "default", "shuffle", List.of()),
                new MetricsDocument.Input("keys", "default", "all", List.of())))), comps);
    }
}
