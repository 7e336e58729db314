package io.nonstopstorm.grouping.storm;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shared metrics document vectors of tests/vectors/documents through the grouping's reader. It does
 * not know the topology's executors, so the {@code unknown_executor} cases are not its to refuse.
 */
class DocumentVectorsTest {
    private static final Path VECTORS = Path.of("../../tests/vectors/documents");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(Path p) throws IOException {
        return (Map<String, Object>) JSONValue.parse(Files.readString(p));
    }

    static Stream<Path> metricsVectors() throws IOException {
        try (Stream<Path> files = Files.list(VECTORS)) {
            return files.filter(f -> f.getFileName().toString().startsWith("metrics-")).sorted().toList().stream();
        }
    }

    @Test
    void thereAreMetricsVectors() throws IOException {
        assertTrue(metricsVectors().count() >= 5);
    }

    @ParameterizedTest
    @MethodSource("metricsVectors")
    @SuppressWarnings("unchecked")
    void metricsDocumentsGetTheVectorsVerdict(Path p) throws IOException {
        Map<String, Object> v = read(p);
        Map<String, Object> doc = (Map<String, Object>) v.get("document");
        String json = JSONValue.toJSONString(doc);
        // The component of the first executor: the one whose tasks the reader expands.
        String component = (String) ((List<Map<String, Object>>) doc.get("executors")).get(0).get("component");
        if ("accept".equals(v.get("verdict")) || "unknown_executor".equals(v.get("reason"))) {
            assertTrue(MetricsDocumentLoads.parse(json, component).size() >= 1, p.getFileName().toString());
        } else {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                      () -> MetricsDocumentLoads.parse(json, component));
            assertTrue(e.getMessage().contains((String) v.get("reason")),
                       p.getFileName() + ": expected " + v.get("reason") + ", got '" + e.getMessage() + "'");
        }
    }
}
