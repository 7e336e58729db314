package io.nonstopstorm.metrics.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.nonstopstorm.wire.ExecutorId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;

/** The encoder must produce exactly the shared fixture, which the Python reader is tested against too. */
class DocumentEncoderTest {
    static Path fixture() {
        String dir = System.getProperty("nonstop.fixtures.dir", "../../tests/fixtures");
        return Path.of(dir, "metrics-document-v1.json");
    }

    /** The fixture's content, built from the document model. */
    static MetricsDocument fixtureDocument() {
        MetricsDocument.Input fromKeys = new MetricsDocument.Input("keys", "default", "fields", List.of("key"));
        return new MetricsDocument(
            "keyed-3-1767225600",
            new MetricsDocument.Worker("127.0.0.11", 27121, 41234, 1767225601500L, 0.4127),
            new MetricsDocument.Window(1767225660000L, 5.0021, 11, 5),
            new MetricsDocument.Node(2, 2596.142, 1.1875, List.of(
                new MetricsDocument.Net("lo", 182733.5, 182733.5), new MetricsDocument.Net("eth0", 0.0, 0.0))),
            List.of(
                new MetricsDocument.Executor(new ExecutorId(1, 1), "busy", List.of(1), 0.1012, 0, 0.0, 3, 32768, 0.0, 119.9496, 0.6002),
                new MetricsDocument.Executor(new ExecutorId(3, 4), "idle", List.of(3, 4), 0.0041, 0, 0.0, 0, 32768, 0.0, 200.116, 0.0401),
                new MetricsDocument.Executor(new ExecutorId(5, 5), "keys", List.of(5), 0.0533, 0, 0.0, 0, 32768, 200.116, 0.0, 0.0),
                new MetricsDocument.Executor(new ExecutorId(6, 6), "score", List.of(6), 0.0117, 1, 0.082, null, null, 0.0, 40.0, null),
                new MetricsDocument.Executor(new ExecutorId(7, 7), "score", List.of(7), null, 1, null, null, null, 0.0, 0.0, 0.0)),
            List.of(
                new MetricsDocument.Pair(5, 1, 600, 119.9496),
                new MetricsDocument.Pair(5, 2, 401, 80.1663),
                new MetricsDocument.Pair(5, 3, 500, 99.958),
                new MetricsDocument.Pair(5, 4, 501, 100.158),
                new MetricsDocument.Pair(5, 6, 200, 39.9832)),
            List.of(
                new MetricsDocument.Component("busy", "bolt", List.of(1, 2), List.of(fromKeys)),
                new MetricsDocument.Component("idle", "bolt", List.of(3, 4), List.of(fromKeys)),
                new MetricsDocument.Component("keys", "spout", List.of(5), List.of()),
                new MetricsDocument.Component("score", "bolt", List.of(6, 7),
                    List.of(new MetricsDocument.Input("keys", "default", "shuffle", List.of())))));
    }

    @Test
    void encodingTheModelGivesTheSharedFixture() throws IOException {
        Object expected = JSONValue.parse(Files.readString(fixture()));
        Object actual = JSONValue.parse(DocumentEncoder.encode(fixtureDocument()));
        assertJsonEquals(expected, actual, "$");
    }

    @Test
    void theFixtureIsTheCurrentSchemaVersion() throws IOException {
        Map<?, ?> fixture = (Map<?, ?>) JSONValue.parse(Files.readString(fixture()));
        assertEquals(MetricsDocument.SCHEMA, fixture.get("schema"));
        assertEquals(MetricsDocument.VERSION, ((Number) fixture.get("version")).intValue());
    }

    @Test
    void aMeasuredStateIsWrittenAndAnUnmeasuredOneLeftOut() {
        MetricsDocument.Executor measured = new MetricsDocument.Executor(new ExecutorId(3, 3), "count", List.of(3), null,
            0, 0.0, null, null, 0.0, 1.0, null, new MetricsDocument.StateSize(67_108_865, true, 1767225659000L));
        MetricsDocument.Executor unmeasured = new MetricsDocument.Executor(new ExecutorId(4, 4), "count", List.of(4),
            null, 0, 0.0, null, null, 0.0, 1.0, null);
        MetricsDocument d = fixtureDocument();
        String json = DocumentEncoder.encode(new MetricsDocument(d.topologyId(), d.worker(), d.window(), d.node(),
            List.of(measured, unmeasured), List.of(), List.of()));
        assertTrue(json.contains("\"busy\":null,\"state\":{\"bytes\":67108865,\"over_limit\":true,"
                                 + "\"measured_at_ms\":1767225659000}}"), json);
        assertEquals(1, json.split("\"state\"", -1).length - 1, json);
    }

    @Test
    void keyOrderIsStableAndSchemaComesFirst() {
        String json = DocumentEncoder.encode(fixtureDocument());
        assertTrue(json.startsWith("{\"schema\":\"nonstop.metrics.worker\",\"version\":1,"), json.substring(0, 60));
    }

    /** Structural equality; numbers compare by value (1 == 1.0), everything else exactly. */
    static void assertJsonEquals(Object expected, Object actual, String path) {
        if (expected instanceof Map<?, ?> em) {
            if (!(actual instanceof Map<?, ?> am)) {
                fail(path + ": expected an object, got " + actual);
                return;
            }
            assertEquals(em.keySet(), am.keySet(), path + ": keys");
            for (Object k : em.keySet()) {
                assertJsonEquals(em.get(k), am.get(k), path + "." + k);
            }
        } else if (expected instanceof List<?> el) {
            if (!(actual instanceof List<?> al)) {
                fail(path + ": expected a list, got " + actual);
                return;
            }
            assertEquals(el.size(), al.size(), path + ": length");
            Iterator<?> a = al.iterator();
            int i = 0;
            for (Object e : el) {
                assertJsonEquals(e, a.next(), path + "[" + i++ + "]");
            }
        } else if (expected instanceof Number en) {
            if (!(actual instanceof Number an)) {
                fail(path + ": expected a number, got " + actual);
                return;
            }
            assertEquals(en.doubleValue(), an.doubleValue(), 0.0, path);
        } else {
            assertEquals(expected, actual, path);
        }
    }
}
