package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.signal.TaskLoad;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetricsDocumentLoadsTest {
    private static String fixture() throws IOException {
        String dir = System.getProperty("nonstop.fixtures.dir", "../../tests/fixtures");
        return Files.readString(Path.of(dir, "metrics-document-v1.json"));
    }

    @Test
    void theSharedFixtureGivesEachTaskItsExecutorsBusyFraction() throws IOException {
        String doc = fixture();
        // the executor's figures for each of its tasks: 200.116/s over 5.0021 s = 1001 tuples
        assertEquals(List.of(new TaskLoad(3, 41234, 11, 1767225660000L, 5.0021, 0.0401, 1001, 0),
                new TaskLoad(4, 41234, 11, 1767225660000L, 5.0021, 0.0401, 1001, 0)), MetricsDocumentLoads.parse(doc, "idle"));
        assertEquals(List.of(new TaskLoad(1, 41234, 11, 1767225660000L, 5.0021, 0.6002, 600, 3)),
                MetricsDocumentLoads.parse(doc, "busy"));
        List<TaskLoad> score = MetricsDocumentLoads.parse(doc, "score");
        assertEquals(2, score.size());
        assertEquals(null, score.get(0).busy(), "unknown stays unknown");
        assertEquals(null, score.get(0).queueLength());
        assertEquals(List.of(), MetricsDocumentLoads.parse(doc, "nothing-here"));
    }

    @Test
    void unknownFieldsAreIgnoredAndAnOlderDocumentWithoutBusyReadsAsUnknown() {
        String doc = LoadDocuments.document(9, 1, 5_000, 2.0, "count", Map.of(4, 0.5)).replace("\"busy\":0.5,", "")
                .replace("\"busy\":0.5", "\"other\":1");
        List<TaskLoad> loads = MetricsDocumentLoads.parse(doc, "count");
        assertEquals(1, loads.size());
        assertEquals(null, loads.get(0).busy());
    }

    @Test
    void aDocumentOfAnotherVersionOrBrokenIsAClearError() throws IOException {
        String v2 = fixture().replace("\"version\": 1", "\"version\": 2");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MetricsDocumentLoads.parse(v2, "idle"));
        assertTrue(e.getMessage().contains("$.version"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MetricsDocumentLoads.parse("{\"schema\": ", "idle"));
        assertTrue(e.getMessage().startsWith("not JSON"), e.getMessage());
        String noWindow = fixture().replace("\"end_ms\"", "\"end\"");
        e = assertThrows(IllegalArgumentException.class, () -> MetricsDocumentLoads.parse(noWindow, "idle"));
        assertTrue(e.getMessage().contains("$.window.end_ms"), e.getMessage());
    }
}
