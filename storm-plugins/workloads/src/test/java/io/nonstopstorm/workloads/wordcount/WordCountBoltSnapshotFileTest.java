package io.nonstopstorm.workloads.wordcount;

import io.nonstopstorm.workloads.RecordingCollector;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nonstopstorm.workloads.measure.MeasureDir;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONObject;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The counts file of one count task, written on ticks and at cleanup, around a handoff of its counts. */
class WordCountBoltSnapshotFileTest {
    private static final int TASK = 3;
    private static final Map<String, Object> DISTRIBUTED = Map.of("storm.cluster.mode", "distributed");
    private static final Map<Integer, String> TASKS = Map.of(1, "split", TASK, "count", -1, "__system");
    private static final Map<String, List<Integer>> COMPONENT_TASKS =
        Map.of("split", List.of(1), "count", List.of(TASK), "__system", List.of(-1));
    private static final Map<String, Map<String, Fields>> FIELDS =
        Map.of("split", Map.of("default", new Fields("word")), "__system", Map.of("__tick", new Fields("rate_secs")));
    private static final GeneralTopologyContext SENDERS =
        new GeneralTopologyContext(new StormTopology(), DISTRIBUTED, TASKS, COMPONENT_TASKS, FIELDS, "t-1");

    @TempDir
    Path dir;
    private WordCountBolt bolt;

    @BeforeEach
    void prepare() {
        TopologyContext context = new TopologyContext(new StormTopology(), DISTRIBUTED, TASKS, COMPONENT_TASKS, FIELDS,
            null, "t-1", null, null, TASK, 6700, List.of(TASK), null, null, new HashMap<>(), new HashMap<>(), null, null);
        Map<String, Object> conf = new HashMap<>(DISTRIBUTED);
        conf.put(MeasureDir.CONF_KEY, dir.toString());
        bolt = new WordCountBolt();
        bolt.prepare(conf, context, new OutputCollector(new RecordingCollector()));
    }

    @Test
    void aTickWritesTheCountsAndCleanupWritesWhatCameAfter() throws IOException {
        bolt.execute(word("storm"));
        bolt.execute(tick());
        assertEquals(Map.of("storm", 1L), written());
        bolt.execute(word("storm"));
        bolt.cleanup();
        assertEquals(Map.of("storm", 2L), written());
    }

    @Test
    void anInstanceThatHandedItsCountsOverLeavesItsFileAsItWas() throws IOException {
        bolt.execute(word("storm"));
        bolt.execute(tick());
        bolt.execute(word("nonstop"));
        String before = Files.readString(file());
        assertEquals(Map.of("storm", 1L, "nonstop", 1L), bolt.snapshotState());
        // The lazy kill stops the old instance after the new one wrote the handed-over counts and more:
        // a write now would be the task's newest file, with fewer counts than the new instance's.
        bolt.cleanup();
        assertEquals(before, Files.readString(file()));
    }

    @Test
    void aRefusedHandoffLeavesTheCountsWithThisInstanceAndItsTicksWriteThem() throws IOException {
        bolt.execute(word("storm"));
        bolt.snapshotState();
        // The worker refused to send the snapshot (over the size limit): this instance executes again.
        bolt.execute(word("storm"));
        bolt.execute(tick());
        assertEquals(Map.of("storm", 2L), written());
        bolt.snapshotState();
        bolt.execute(tick());
        bolt.execute(word("nonstop"));
        bolt.cleanup();
        assertEquals(Map.of("storm", 2L, "nonstop", 1L), written());
    }

    private Path file() {
        return dir.resolve("counts-count-" + TASK + ".json");
    }

    private Map<String, Long> written() throws IOException {
        JSONObject doc = (JSONObject) JSONValue.parse(Files.readString(file(), StandardCharsets.UTF_8));
        Map<String, Long> counts = new HashMap<>();
        ((JSONObject) doc.get("counts")).forEach((w, n) -> counts.put(w, ((Number) n).longValue()));
        return counts;
    }

    private static Tuple word(String w) {
        return new TupleImpl(SENDERS, List.of(w), "split", 1, "default");
    }

    private static Tuple tick() {
        return new TupleImpl(SENDERS, List.of(1), "__system", -1, "__tick");
    }
}
