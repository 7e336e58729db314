package io.nonstopstorm.workloads.keyed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyCycleTest {
    @Test
    void keyIAppearsIPlusOneTimesPerCycle() {
        List<String> c = KeyCycle.cycle(4);
        assertEquals(10, c.size());
        Map<String, Integer> counts = new HashMap<>();
        c.forEach(k -> counts.merge(k, 1, Integer::sum));
        assertEquals(Map.of("k0", 1, "k1", 2, "k2", 3, "k3", 4), counts);
    }

    @Test
    void theHeaviestKeyIsSpreadOutNotBunched() {
        List<String> c = KeyCycle.cycle(8);
        int longestRun = 0;
        int run = 0;
        for (String k : c) {
            run = k.equals("k7") ? run + 1 : 0;
            longestRun = Math.max(longestRun, run);
        }
        assertTrue(longestRun <= 1, "k7 runs " + longestRun + " in a row in " + c);
    }

    @Test
    void noKeysIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> KeyCycle.cycle(0));
    }
}
