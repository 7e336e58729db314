package io.nonstopstorm.workloads.wordcount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;

/** The Java word count must do exactly what the Python one does: checked on tests/vectors/workloads.json. */
class SharedVectorsTest {
    @SuppressWarnings("unchecked")
    static Map<String, Object> vectors() throws IOException {
        return (Map<String, Object>) JSONValue.parse(Files.readString(Path.of("../../tests/vectors/workloads.json")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void fnv1aMatchesThePublishedValues() throws IOException {
        for (Map<String, Object> v : (List<Map<String, Object>>) vectors().get("fnv1a")) {
            assertEquals(((Number) v.get("hash")).longValue(), KeyCost.fnv1a((String) v.get("text")), v.toString());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void keyCostMatchesThePythonImplementation() throws IOException {
        Map<String, Object> kc = (Map<String, Object>) vectors().get("keycost");
        KeyCost cost = new KeyCost(num(kc, "base"), num(kc, "classes"), num(kc, "spread"), num(kc, "drift_ms"),
            num(kc, "seed"));
        for (Map<String, Object> c : (List<Map<String, Object>>) kc.get("cases")) {
            String key = (String) c.get("key");
            long now = ((Number) c.get("now_ms")).longValue();
            assertEquals(((Number) c.get("epoch")).longValue(), cost.epoch(now), c.toString());
            assertEquals(num(c, "weight"), cost.weight(key, cost.epoch(now)), c.toString());
            assertEquals(num(c, "iterations"), cost.iterations(key, now), c.toString());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void sentencesSplitLikeThePythonBolt() throws IOException {
        for (Map<String, Object> v : (List<Map<String, Object>>) vectors().get("words")) {
            assertEquals(v.get("words"), Words.split((String) v.get("sentence")), v.toString());
        }
    }

    @Test
    void harmonicNumbersAreSummedInOrder() {
        assertEquals(0.0, KeyCost.harmonic(0));
        assertEquals(1.0 + 0.5 + 1.0 / 3, KeyCost.harmonic(3), 0.0);
    }

    private static int num(Map<String, Object> m, String k) {
        return ((Number) m.get(k)).intValue();
    }
}
