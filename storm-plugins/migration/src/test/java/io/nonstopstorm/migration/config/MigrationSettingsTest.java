package io.nonstopstorm.migration.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MigrationSettingsTest {
    private static final Path LOCAL = Path.of("/var/storm/local");

    @Test
    void defaultsAreOffWithThePaperTunables() {
        MigrationSettings s = MigrationSettings.fromConf(Map.of(), LOCAL);
        assertFalse(s.enabled());
        assertEquals(2000, s.lazyKillMs());
        assertEquals(1000, s.workerSyncMs());
        assertTrue(s.push());
        assertEquals(Path.of("/var/storm/local/nonstop/plan.json"), s.planFile());
        assertEquals(32L << 20, s.parkedMaxBytes());
        assertEquals(10L << 20, s.eventsMaxBytes());
    }

    @Test
    void readsYamlTypesAndStrings() {
        MigrationSettings s = MigrationSettings.fromConf(Map.of(
            "nonstop.migration.enabled", true, "nonstop.migration.worker.sync.ms", 250,
            "nonstop.migration.lazy.kill.ms", "0", "nonstop.migration.push", "false",
            "nonstop.migration.plan.dir", "/tmp/p", "nonstop.migration.parked.max.bytes", "1048576",
            "nonstop.migration.events.max.bytes", 65536), LOCAL);
        assertEquals(1 << 20, s.parkedMaxBytes());
        assertEquals(65536, s.eventsMaxBytes());
        assertTrue(s.enabled());
        assertEquals(250, s.workerSyncMs());
        assertEquals(0, s.lazyKillMs());
        assertFalse(s.push());
        assertEquals(Path.of("/tmp/p/plan.json"), s.planFile());
    }

    @Test
    void badValuesNameTheirKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> MigrationSettings.fromConf(Map.of("nonstop.migration.lazy.kill.ms", "soon"), LOCAL));
        assertTrue(e.getMessage().contains("nonstop.migration.lazy.kill.ms"));
        e = assertThrows(IllegalArgumentException.class,
            () -> MigrationSettings.fromConf(Map.of("nonstop.migration.enabled", "yes"), LOCAL));
        assertTrue(e.getMessage().contains("nonstop.migration.enabled"));
        e = assertThrows(IllegalArgumentException.class,
            () -> MigrationSettings.fromConf(Map.of("nonstop.migration.worker.sync.ms", 1), LOCAL));
        assertTrue(e.getMessage().contains(">= 10"));
        e = assertThrows(IllegalArgumentException.class,
            () -> MigrationSettings.fromConf(Map.of("nonstop.migration.parked.max.bytes", -1), LOCAL));
        assertTrue(e.getMessage().contains("nonstop.migration.parked.max.bytes"));
        e = assertThrows(IllegalArgumentException.class,
            () -> MigrationSettings.fromConf(Map.of("nonstop.migration.events.max.bytes", 100), LOCAL));
        assertTrue(e.getMessage().contains("nonstop.migration.events.max.bytes"));
    }
}
