package io.nonstopstorm.workloads.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CountsSnapshotTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(Path p) throws Exception {
        return (Map<String, Object>) JSONValue.parse(Files.readString(p));
    }

    @Test
    void writesOnlyWhatChangedSinceTheLastWrite(@TempDir Path dir) throws Exception {
        CountsSnapshot s = new CountsSnapshot(dir, "count", 3);
        assertEquals(dir.resolve("counts-count-3.json"), s.path());
        s.writeIfChanged(Map.of("a", 1L), 1);
        assertFalse(Files.exists(s.path()), "nothing changed yet");

        s.changed();
        s.writeIfChanged(Map.of("a", 2L), 2);
        Map<String, Object> doc = read(s.path());
        assertEquals(2L, ((Number) doc.get("tuples")).longValue());
        assertEquals("count", doc.get("component"));

        s.writeIfChanged(Map.of("a", 9L), 9);
        assertEquals(2L, ((Number) read(s.path()).get("tuples")).longValue(), "unchanged since: not written again");
    }

    @Test
    void aFailedWriteIsTriedAgainOnTheNextCall(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("not-yet");
        CountsSnapshot s = new CountsSnapshot(missing, "count", 1);
        s.changed();
        s.writeIfChanged(Map.of("a", 1L), 1);  // the directory does not exist: logged, not thrown
        assertFalse(Files.exists(s.path()));
        Files.createDirectory(missing);
        s.writeIfChanged(Map.of("a", 1L), 1);
        assertTrue(Files.exists(s.path()), "still marked changed after the failure");
    }
}
