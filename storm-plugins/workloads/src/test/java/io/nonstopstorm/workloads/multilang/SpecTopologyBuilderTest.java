package io.nonstopstorm.workloads.multilang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class SpecTopologyBuilderTest {
    /** What streamparse's to_flux_dict gives for a word count fed by the Java FeedSpout (plus pycontrol's additions). */
    static final String WORDCOUNT = """
        {"name": "wc",
         "bolts": [
          {"id": "split", "className": "org.apache.storm.flux.wrappers.bolts.FluxShellBolt",
           "constructorArgs": [["streamparse_run", "topologies.wordcount.bolts.SplitSentenceBolt"], ["word"]],
           "parallelism": 12, "configMethods": []},
          {"id": "count", "className": "org.apache.storm.flux.wrappers.bolts.FluxShellBolt",
           "constructorArgs": [["streamparse_run", "topologies.wordcount.bolts.WordCountBolt"], ["word", "count"]],
           "parallelism": 24,
           "configMethods": [{"name": "addComponentConfig", "args": ["topology.tick.tuple.freq.secs", 1]}]},
          {"id": "sink", "className": "org.apache.storm.flux.wrappers.bolts.FluxShellBolt",
           "constructorArgs": [["streamparse_run", "topologies.x.Sink"], ["NONE_BUT_FLUX_WANTS_SOMETHING_HERE"]],
           "parallelism": 1}],
         "spouts": [{"id": "sentences", "className": "io.nonstopstorm.workloads.feed.FeedSpout",
                     "constructorArgs": ["generated", "sentence"], "parallelism": 2}],
         "streams": [
          {"from": "sentences", "to": "split", "grouping": {"streamId": "default", "type": "SHUFFLE"}},
          {"from": "split", "to": "count", "grouping": {"streamId": "default", "type": "FIELDS", "args": ["word"]}},
          {"from": "count", "to": "sink", "grouping": {"streamId": "default", "type": "GLOBAL"}}],
         "config": {"topology.workers": 8}}
        """;

    @SuppressWarnings("unchecked")
    static Map<String, Object> spec(String json) {
        return (Map<String, Object>) JSONValue.parse(json);
    }

    static Map<String, Object> conf(String... kv) {
        Map<String, Object> c = new HashMap<>();
        c.put("nonstop.python", "/venv/bin/python");
        for (int i = 0; i < kv.length; i += 2) {
            c.put(kv[i], kv[i + 1]);
        }
        return c;
    }

    @Test
    void buildsShellAndJavaComponentsWithTheirGroupingsAndParallelism() {
        TopologySpec spec = SpecParser.parse(spec(WORDCOUNT));
        assertEquals(Map.of("topology.workers", 8), spec.config());
        StormTopology t = SpecTopologyBuilder.build(spec, conf("workload.par.count", "3"));
        assertEquals(2, t.get_spouts().get("sentences").get_common().get_parallelism_hint());
        Bolt split = t.get_bolts().get("split");
        Bolt count = t.get_bolts().get("count");
        assertEquals(12, split.get_common().get_parallelism_hint());
        assertEquals(3, count.get_common().get_parallelism_hint());
        Grouping g = count.get_common().get_inputs().get(new GlobalStreamId("split", "default"));
        assertEquals(List.of("word"), g.get_fields());
        assertTrue(split.get_common().get_inputs().get(new GlobalStreamId("sentences", "default")).is_set_shuffle());
        assertEquals(List.of("word", "count"), count.get_common().get_streams().get("default").get_output_fields());
        assertTrue(t.get_bolts().get("sink").get_common().get_streams().isEmpty());
        assertTrue(count.get_common().get_json_conf().contains("topology.tick.tuple.freq.secs"));
        DeclaredShellBolt shell = (DeclaredShellBolt) Utils.javaDeserialize(split.get_bolt_object().get_serialized_java(),
            DeclaredShellBolt.class);
        assertEquals(List.of("word"), declared(shell).get("default"));
    }

    @Test
    void streamparseRunBecomesTheConfiguredInterpreter() {
        ComponentSpec c = SpecParser.parse(spec(WORDCOUNT)).bolts().get(0);
        assertEquals(List.of("/venv/bin/python", "-m", "streamparse.run", "topologies.wordcount.bolts.SplitSentenceBolt"),
            SpecTopologyBuilder.command(c, conf()));
    }

    @Test
    void aMissingInterpreterIsNamedWithTheComponent() {
        Map<String, Object> c = conf();
        c.remove("nonstop.python");
        SpecException e = assertThrows(SpecException.class,
            () -> SpecTopologyBuilder.build(SpecParser.parse(spec(WORDCOUNT)), c));
        assertTrue(e.getMessage().startsWith("component 'split': nonstop.python is not set"), e.getMessage());
    }

    @Test
    void problemsAreReportedNamingTheComponent() {
        assertProblem(WORDCOUNT.replace("\"args\": [\"word\"]", "\"args\": [\"wrd\"]"),
            "component 'count': fields grouping on [wrd] but 'split' stream 'default' has fields [word]");
        assertProblem(WORDCOUNT.replace("{\"from\": \"sentences\", \"to\": \"split\"", "{\"from\": \"sentencez\", \"to\": \"split\""),
            "component 'split': subscribes to unknown component 'sentencez'");
        assertProblem(WORDCOUNT.replace("io.nonstopstorm.workloads.feed.FeedSpout", "no.such.Spout"),
            "component 'sentences': class no.such.Spout not found in the topology jar");
        assertProblem(WORDCOUNT.replace("[\"generated\", \"sentence\"]", "[\"generated\", \"sentence\", 3]"),
            "component 'sentences': io.nonstopstorm.workloads.feed.FeedSpout has no public constructor taking [\"generated\",\"sentence\",3]");
        assertProblem(WORDCOUNT.replace("[\"generated\", \"sentence\"]", "[\"bogus\", \"sentence\"]"),
            "component 'sentences': new FeedSpout[\"bogus\",\"sentence\"] failed: workload.feed must be lines, generated or trace, got 'bogus'");
        assertProblem(WORDCOUNT.replace("\"type\": \"GLOBAL\"", "\"type\": \"SIDEWAYS\""),
            "component 'sink': unknown grouping type 'SIDEWAYS' on 'count'");
        assertProblem(WORDCOUNT.replace("\"streamId\": \"default\", \"type\": \"GLOBAL\"", "\"streamId\": \"totals\", \"type\": \"GLOBAL\""),
            "component 'sink': subscribes to stream 'totals' of 'count', which declares only [default]");
        assertProblem(WORDCOUNT.replace("\"parallelism\": 12", "\"parallelism\": {\"prod\": 12}"),
            "component 'split': parallelism must be an integer >= 1, got {\"prod\":12} (resolve per-environment par dicts before export)");
    }

    @Test
    void badSettingsOfAComponentFailTheBuildNamingIt() {
        SpecException e = assertThrows(SpecException.class, () -> SpecTopologyBuilder.build(
            SpecParser.parse(spec(WORDCOUNT)), conf("workload.par.split", "0")));
        assertEquals("component 'split': workload.par.split must be >= 1, got 0", e.getMessage());
        e = assertThrows(SpecException.class, () -> SpecTopologyBuilder.build(
            SpecParser.parse(spec(WORDCOUNT)), conf("workload.rate", "fast")));
        assertEquals("component 'sentences': workload.rate must be a number, got 'fast'", e.getMessage());
    }

    private static void assertProblem(String json, String message) {
        SpecException e = assertThrows(SpecException.class,
            () -> SpecTopologyBuilder.build(SpecParser.parse(spec(json)), conf()));
        assertEquals(message, e.getMessage());
    }

    private static Map<String, List<String>> declared(DeclaredShellBolt b) {
        Map<String, List<String>> out = new HashMap<>();
        b.declareOutputFields(new org.apache.storm.topology.OutputFieldsGetter() {
            @Override
            public void declareStream(String streamId, boolean direct, org.apache.storm.tuple.Fields fields) {
                out.put(streamId, new ArrayList<>(fields.toList()));
            }
        });
        return out;
    }
}
