package io.nonstopstorm.grouping.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyTraceTest {

    @Test
    void zipfIsSeededAndSkewGrowsWithTheExponent() {
        KeyTrace a = KeyTrace.zipf(20_000, 1_000, 1.0, 3);
        assertArrayEquals(a.ids(), KeyTrace.zipf(20_000, 1_000, 1.0, 3).ids());
        double mild = KeyTrace.zipf(20_000, 1_000, 0.5, 3).topKeyShare();
        double steep = KeyTrace.zipf(20_000, 1_000, 2.0, 3).topKeyShare();
        assertTrue(mild < a.topKeyShare() && a.topKeyShare() < steep);
        // Zipf 2.0 over 1000 keys: p(1) = 1 / H(1000, 2) ~ 0.608
        assertEquals(0.608, steep, 0.02);
    }

    @Test
    void fileTraceKeepsLineOrderAndSkipsBlankLines(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("keys.txt");
        Files.writeString(file, "a\nb\n\na\nc\n");
        KeyTrace trace = KeyTrace.file(file, 100);
        assertEquals(4, trace.messages());
        assertEquals(3, trace.distinctKeys());
        assertEquals("a", trace.names()[trace.ids()[2]]);
        assertEquals(2, KeyTrace.file(file, 2).messages());
        Files.writeString(file, "\n\n");
        assertThrows(IllegalArgumentException.class, () -> KeyTrace.file(file, 100));
    }
}
