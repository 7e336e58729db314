package io.nonstopstorm.grouping.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulateGroupingTest {

    @Test
    void writesOneRunPerSchemeWithSummaryAndSeries(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("nested/result.json");
        int code = SimulateGrouping.run(new String[]{"--output", out.toString(), "--schemes", "kg,cg",
                "--messages", "40000", "--capacities", "2,1,1,1", "--capacity-change", "20000=1,1,1,2",
                "--samples", "20", "--zipf-exponent", "1.5"}, quiet(), quiet());
        assertEquals(0, code);
        JsonNode doc = new ObjectMapper().readTree(out.toFile());
        assertEquals(4, doc.at("/config/capacities/initial").size());
        assertEquals(40000, doc.at("/trace/messages").asInt());
        assertEquals(2, doc.get("runs").size());
        JsonNode kg = doc.get("runs").get(0);
        assertEquals("kg", kg.get("scheme").asText());
        assertEquals(kg.at("/summary/distinct_keys").asLong(), kg.at("/summary/memory_total").asLong());
        assertEquals(20, kg.at("/series/t").size());
        assertEquals(20, kg.at("/series/imbalance").size());
        assertTrue(kg.at("/series/virtual_workers").isNull());
        JsonNode cg = doc.get("runs").get(1);
        assertEquals(20, cg.at("/series/virtual_workers").size());
        assertEquals(4, cg.at("/series/utilisation/0").size());
        assertFalse(Files.readString(out).contains("NaN"));
    }

    @Test
    void badArgumentsExitWithCodeTwoAndAMessage(@TempDir Path dir) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String out = dir.resolve("x.json").toString();
        assertEquals(2, SimulateGrouping.run(new String[]{"--output", out, "--schemes", "nope"}, quiet(), new PrintStream(err)));
        assertTrue(err.toString().contains("unknown scheme 'nope'"), err.toString());
        assertEquals(2, SimulateGrouping.run(new String[]{"--output", out, "--capacities", "1,0"}, quiet(), quiet()));
        assertEquals(2, SimulateGrouping.run(new String[]{"--output", out, "--capacity-change", "5:1,1"}, quiet(), quiet()));
        assertEquals(2, SimulateGrouping.run(new String[]{"--messages", "10"}, quiet(), quiet()), "--output is required");
        assertFalse(Files.exists(dir.resolve("x.json")));
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream());
    }
}
