package io.nonstopstorm.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/** tests/vectors/wire/executor_ids.json, which the Python executor id reads too. */
class ExecutorIdVectorsTest {
    static final Path FILE = Path.of(System.getProperty("nonstop.vectors.dir", "../../tests/vectors"), "wire",
                                     "executor_ids.json");

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> cases(String kind) throws IOException {
        return (List<Map<String, Object>>) ((Map<String, Object>) JSONValue.parse(Files.readString(FILE))).get(kind);
    }

    static Stream<Map<String, Object>> wire() throws IOException {
        return cases("wire").stream();
    }

    static Stream<Map<String, Object>> ui() throws IOException {
        return cases("ui").stream();
    }

    static Stream<Map<String, Object>> invalid() throws IOException {
        return cases("invalid").stream();
    }

    private static ExecutorId expected(Map<String, Object> c) {
        return new ExecutorId(((Number) c.get("start")).intValue(), ((Number) c.get("end")).intValue());
    }

    @Test
    void theFileHasEnoughCases() throws IOException {
        assertTrue(wire().count() + ui().count() + invalid().count() >= 12);
        assertTrue(invalid().allMatch(c -> c.get("why") instanceof String w && !w.isBlank()));
    }

    @ParameterizedTest
    @MethodSource("wire")
    void wireSpellingsParseAndRoundTrip(Map<String, Object> c) {
        String text = (String) c.get("text");
        ExecutorId id = ExecutorId.parse(text);
        assertEquals(expected(c), id);
        assertEquals(text, id.toString(), "the wire spelling is written as read");
        assertThrows(IllegalArgumentException.class, () -> ExecutorId.parseUi(text), "the UI reader is strict too");
    }

    @ParameterizedTest
    @MethodSource("ui")
    void uiSpellingsParseOnlyThroughTheUiReader(Map<String, Object> c) {
        String text = (String) c.get("text");
        assertEquals(expected(c), ExecutorId.parseUi(text));
        assertEquals(text, ExecutorId.parseUi(text).toUiString());
        assertThrows(IllegalArgumentException.class, () -> ExecutorId.parse(text), "the wire reader takes no UI spelling");
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void invalidTextsAreRefusedByBothReaders(Map<String, Object> c) {
        String text = (String) c.get("text");
        IllegalArgumentException wire = assertThrows(IllegalArgumentException.class, () -> ExecutorId.parse(text),
                                                     (String) c.get("why"));
        assertThrows(IllegalArgumentException.class, () -> ExecutorId.parseUi(text), (String) c.get("why"));
        assertTrue(wire.getMessage().contains("'" + text + "'"), "the message names the text: " + wire.getMessage());
    }
}
