package io.nonstopstorm.metrics.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DeltaTrackerTest {
    @Test
    void firstCallIsOnlyTheBaseline() {
        DeltaTracker<String> d = new DeltaTracker<>(true);
        assertFalse(d.hasBaseline());
        assertEquals(Map.of(), d.update(Map.of("a", 100L)));
        assertTrue(d.hasBaseline());
        assertEquals(Map.of("a", 30L), d.update(Map.of("a", 130L)));
    }

    @Test
    void keysNewSinceThePreviousCallCountWholeOrAreBaselined() {
        DeltaTracker<String> fromZero = new DeltaTracker<>(true);
        fromZero.update(Map.of("a", 1L));
        assertEquals(Map.of("a", 1L, "b", 7L), fromZero.update(Map.of("a", 2L, "b", 7L)));

        DeltaTracker<String> baselined = new DeltaTracker<>(false);
        baselined.update(Map.of("a", 1L));
        assertEquals(Map.of("a", 1L), baselined.update(Map.of("a", 2L, "b", 7L)));
        assertEquals(Map.of("a", 0L, "b", 3L), baselined.update(Map.of("a", 2L, "b", 10L)));
    }

    @Test
    void aReadingBelowThePreviousOneIsARestart() {
        DeltaTracker<String> d = new DeltaTracker<>(true);
        d.update(Map.of("a", 500L));
        assertEquals(Map.of("a", 20L), d.update(Map.of("a", 20L)));
    }

    @Test
    void vanishedKeysAreForgotten() {
        DeltaTracker<String> d = new DeltaTracker<>(true);
        d.update(Map.of("a", 5L, "b", 5L));
        assertEquals(Map.of("a", 1L), d.update(Map.of("a", 6L)));
        assertEquals(Map.of("b", 9L), d.update(Map.of("b", 9L)));  // back: new since the previous call
    }
}
