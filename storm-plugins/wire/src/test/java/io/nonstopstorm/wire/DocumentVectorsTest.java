package io.nonstopstorm.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Every case of tests/vectors/documents through the wire module's part of each reader: metrics documents
 * through {@link MetricsDocumentReader}, plan keys through {@link ExecutorSpans#parse} (either spelling),
 * node plan spans through {@link ExecutorSpans#check} (the system executor allowed). The rule's
 * {@code unknown_executor} needs the topology, which only the module readers know: those cases must pass
 * here. The module readers' own vector tests cover the rest of each document.
 */
class DocumentVectorsTest {
    static final Path DIR = Path.of(System.getProperty("nonstop.vectors.dir", "../../tests/vectors"), "documents");

    static Stream<Path> vectors() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().toList().stream();
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> read(Path p) throws IOException {
        return (Map<String, Object>) JSONValue.parse(Files.readString(p));
    }

    @Test
    void thereAreVectorsOfEveryKind() throws IOException {
        List<Object> kinds = vectors().map(p -> {
            try {
                return read(p).get("kind");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).distinct().sorted().map(Object.class::cast).toList();
        assertEquals(List.of("metrics", "node_plan", "plan"), kinds);
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void everyCaseGetsItsVerdict(Path p) throws IOException {
        Map<String, Object> v = read(p);
        String problem = switch ((String) v.get("kind")) {
            case "metrics" -> metricsProblem(v.get("document"));
            case "plan" -> planProblem(v.get("document"));
            case "node_plan" -> nodePlanProblem(v.get("document"));
            default -> throw new IllegalArgumentException(p + ": unknown kind " + v.get("kind"));
        };
        String name = p.getFileName().toString();
        if ("accept".equals(v.get("verdict")) || ExecutorSpans.UNKNOWN_EXECUTOR.equals(v.get("reason"))) {
            assertEquals("", problem, name);
        } else {
            assertTrue(problem.contains((String) v.get("reason")), name + ": expected " + v.get("reason") + ", got '"
                                                                    + problem + "'");
        }
    }

    private static String metricsProblem(Object document) {
        try {
            MetricsDocumentReader.read(JSONValue.toJSONString(document));
            return "";
        } catch (DocumentFields.Invalid e) {
            return e.getMessage();
        }
    }

    @SuppressWarnings("unchecked")
    private static String planProblem(Object document) {
        long tasks = 0;
        for (String key : ((Map<String, Object>) ((Map<String, Object>) document).get("placement")).keySet()) {
            try {
                tasks += ExecutorSpans.parse(key, false, ExecutorId.Spelling.WIRE, ExecutorId.Spelling.UI).taskCount();
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }
        return ExecutorSpans.checkTotal(tasks).orElse("");
    }

    @SuppressWarnings("unchecked")
    private static String nodePlanProblem(Object document) {
        long tasks = 0;
        for (Object port : ((Map<String, Object>) ((Map<String, Object>) document).get("ports")).values()) {
            for (List<Number> span : (List<List<Number>>) ((Map<String, Object>) port).get("executors")) {
                long start = span.get(0).longValue();
                long end = span.get(1).longValue();
                String bad = ExecutorSpans.check(start, end, true).orElse("");
                if (!bad.isEmpty()) {
                    return bad;
                }
                tasks += ExecutorSpans.tasks(start, end);
            }
        }
        return ExecutorSpans.checkTotal(tasks).orElse("");
    }
}
