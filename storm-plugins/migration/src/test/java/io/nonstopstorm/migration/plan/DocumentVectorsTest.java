package io.nonstopstorm.migration.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.reconcile.ExecutorDiff;
import io.nonstopstorm.wire.ExecutorId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The shared node plan vectors of tests/vectors/documents through {@link PlanCodec}, as workers read them. */
class DocumentVectorsTest {
    private static final Path VECTORS = Path.of("../../tests/vectors/documents");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(Path p) throws IOException {
        return (Map<String, Object>) JSONValue.parse(Files.readString(p));
    }

    static Stream<Path> nodePlanVectors() throws IOException {
        try (Stream<Path> files = Files.list(VECTORS)) {
            return files.filter(f -> f.getFileName().toString().startsWith("node-plan-")).sorted().toList().stream();
        }
    }

    @Test
    void thereAreNodePlanVectors() throws IOException {
        assertTrue(nodePlanVectors().count() >= 5);
    }

    @ParameterizedTest
    @MethodSource("nodePlanVectors")
    void nodePlansGetTheVectorsVerdict(Path p) throws IOException, PlanFormatException {
        Map<String, Object> v = read(p);
        String json = JSONValue.toJSONString(v.get("document"));
        if ("accept".equals(v.get("verdict"))) {
            assertTrue(PlanCodec.decode(json).port(27121).isPresent(), p.getFileName().toString());
        } else {
            PlanFormatException e = assertThrows(PlanFormatException.class, () -> PlanCodec.decode(json));
            assertTrue(e.getMessage().contains((String) v.get("reason")),
                       p.getFileName() + ": expected " + v.get("reason") + ", got '" + e.getMessage() + "'");
        }
    }

    @Test
    void aHugeRangeNeverExpandsIntoTasks() {
        // A span the codec refuses cannot reach the worker; built directly, the task loop still terminates.
        ExecutorDiff diff = ExecutorDiff.between(Set.of(), Set.of(new ExecutorId(Integer.MAX_VALUE - 1, Integer.MAX_VALUE)));
        assertEquals(2, diff.addedTasks().size());
    }
}
