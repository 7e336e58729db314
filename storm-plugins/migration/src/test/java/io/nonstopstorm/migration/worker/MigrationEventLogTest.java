package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationEventLogTest {

    @Test
    void linesAreAppendedUntilTheBoundThenTheFileRotatesKeepingOneOld(@TempDir Path dir) throws IOException {
        AtomicLong clock = new AtomicLong(1000);
        Path file = dir.resolve("worker-6700.events.jsonl");
        MigrationEventLog log = new MigrationEventLog(file, clock::incrementAndGet, 200);
        String line = "{\"t_ms\":1001,\"event\":\"reconcile\",\"port\":6700}\n";
        for (int i = 0; i < 4; i++) {
            log.append("reconcile", Map.of("port", 6700));
        }
        assertEquals(4 * line.length(), Files.size(file), "4 lines fit in 200 bytes");
        assertFalse(Files.exists(log.rotatedFile()));

        log.append("switch", Map.of("port", 6700));
        assertTrue(Files.readString(file).startsWith("{\"t_ms\":1005,\"event\":\"switch\""), "a fresh file");
        assertEquals(4, Files.readAllLines(log.rotatedFile()).size(), "the old lines, kept once");

        for (int i = 0; i < 20; i++) {
            log.append("stopped", Map.of("port", 6700));
        }
        assertTrue(Files.size(file) <= 200 && Files.size(log.rotatedFile()) <= 200);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file, log.rotatedFile()), files.sorted().toList(), "one rotated file, no more");
        }
    }
}
