package io.nonstopstorm.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;

class MetricsDocumentReaderTest {
    static final Path FIXTURE = Path.of(System.getProperty("nonstop.fixtures.dir", "../../tests/fixtures"),
                                        "metrics-document-v1.json");

    static String fixture() throws IOException {
        return Files.readString(FIXTURE);
    }

    @SuppressWarnings("unchecked")
    static String edited(Consumer<Map<String, Object>> edit) throws IOException {
        Map<String, Object> doc = (Map<String, Object>) JSONValue.parse(fixture());
        edit.accept(doc);
        return JSONValue.toJSONString(doc);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> firstExecutor(Map<String, Object> doc) {
        return ((List<Map<String, Object>>) doc.get("executors")).get(0);
    }

    static String problem(String json) {
        return assertThrows(DocumentFields.Invalid.class, () -> MetricsDocumentReader.read(json)).getMessage();
    }

    @Test
    void theSharedFixtureReadsWithItsExecutorsInOrder() throws IOException {
        MetricsDocumentReader doc = MetricsDocumentReader.read(fixture());
        assertEquals(List.of(new ExecutorId(1, 1), new ExecutorId(3, 4), new ExecutorId(5, 5), new ExecutorId(6, 6),
                             new ExecutorId(7, 7)),
                     doc.executors().stream().map(MetricsDocumentReader.Executor::id).toList());
        assertEquals("$.executors[1]", doc.executors().get(1).fields().path());
        assertEquals("127.0.0.11", doc.root().object("worker").string("host"));
    }

    @Test
    void theEnvelopeIsChecked() throws IOException {
        assertTrue(problem("{\"schema\": ").startsWith("not JSON"));
        assertTrue(problem(null).startsWith("not JSON"));
        assertEquals("$: expected an object", problem("[1, 2]"));
        assertTrue(problem(edited(d -> d.put("schema", "other"))).startsWith("$.schema: expected nonstop.metrics.worker"));
        assertEquals("$.version: 2 is not supported (this reader knows 1)", problem(edited(d -> d.put("version", 2))));
        assertEquals("$.executors: missing", problem(edited(d -> d.remove("executors"))));
    }

    @Test
    void executorIdsFollowTheSpanRuleBeforeAnyoneIteratesThem() throws IOException {
        assertEquals("$.executors[0].id: expected [start, end], got [4]",
                     problem(edited(d -> firstExecutor(d).put("id", List.of(4)))));
        assertTrue(problem(edited(d -> firstExecutor(d).put("id", List.of(4, 2))))
                       .startsWith("$.executors[0].id: bad_span: executor [4,2]"));
        assertTrue(problem(edited(d -> firstExecutor(d).put("id", List.of(1, 4294967297L))))
                       .startsWith("$.executors[0].id: span_too_large"));
        assertTrue(problem(edited(d -> firstExecutor(d).put("id", List.of(-1, -1))))
                       .startsWith("$.executors[0].id: bad_span"), "the documents carry user executors only");
    }

    @Test
    void fieldsTellMissingFromNullAndNameTheirPath() throws IOException {
        DocumentFields e = MetricsDocumentReader.read(edited(d -> {
            firstExecutor(d).put("cpu_cores", null);
            firstExecutor(d).remove("busy");
        })).executors().get(0).fields();
        assertEquals(OptionalDouble.empty(), e.number("cpu_cores"), "null is not known");
        assertEquals(OptionalDouble.empty(), e.optionalNumber("busy"));
        assertEquals("$.executors[0].busy: missing", assertThrows(DocumentFields.Invalid.class,
                                                                   () -> e.number("busy")).getMessage());
        assertEquals("$.executors[0].cpu_cores: must not be null",
                     assertThrows(DocumentFields.Invalid.class, () -> e.requiredNumber("cpu_cores")).getMessage());
        assertEquals("$.executors[0].component: expected an integer, got busy",
                     assertThrows(DocumentFields.Invalid.class, () -> e.integer("component")).getMessage());
        DocumentFields neg = MetricsDocumentReader.read(edited(d -> firstExecutor(d).put("queue_length", -1)))
                                                  .executors().get(0).fields();
        assertEquals("$.executors[0].queue_length: must be >= 0, got -1",
                     assertThrows(DocumentFields.Invalid.class, () -> neg.nonNegativeInteger("queue_length")).getMessage());
        assertTrue(assertThrows(DocumentFields.Invalid.class, () -> neg.number("queue_length")).getMessage()
                       .startsWith("$.executors[0].queue_length: expected a finite non-negative number"));
    }
}
