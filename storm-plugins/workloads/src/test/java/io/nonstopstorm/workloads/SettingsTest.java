package io.nonstopstorm.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {
    @Test
    void valuesKeepTheirYamlTypes() {
        Map<String, Object> m = Settings.parse(List.of("topology.workers=4", "workload.rate=12.5",
            "topology.debug=true", "name=abc", "list=[1, 2]"));
        assertEquals(4, m.get("topology.workers"));
        assertEquals(12.5, m.get("workload.rate"));
        assertEquals(true, m.get("topology.debug"));
        assertEquals("abc", m.get("name"));
        assertEquals(List.of(1, 2), m.get("list"));
    }

    @Test
    void missingEqualsIsRejectedWithTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Settings.parse(List.of("topology.workers")));
        assertEquals("bad setting 'topology.workers': expected key=value", e.getMessage());
    }

    @Test
    void unparsableValueIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Settings.parse(List.of("k=[1, 2")));
    }
}
