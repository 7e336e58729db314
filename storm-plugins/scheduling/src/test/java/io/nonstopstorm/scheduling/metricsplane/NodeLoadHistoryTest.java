package io.nonstopstorm.scheduling.metricsplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nonstopstorm.scheduling.model.LoadSample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeLoadHistoryTest {

    @Test
    void keepsOneSamplePerWindowAndOnlyTheRecentOnes() {
        NodeLoadHistory h = new NodeLoadHistory(60_000, 100);
        h.add("n1", new LoadSample(1_000, 5));
        h.add("n1", new LoadSample(1_000, 6));   // the same window read again
        h.add("n1", new LoadSample(500, 7));     // older than the last: out of order, dropped
        h.add("n1", new LoadSample(6_000, 8));
        h.add("n2", new LoadSample(50_000, 1));
        assertEquals(Map.of("n1", List.of(new LoadSample(1_000, 5), new LoadSample(6_000, 8)),
                            "n2", List.of(new LoadSample(50_000, 1))), h.snapshot());
        h.prune(62_000);
        assertEquals(Map.of("n1", List.of(new LoadSample(6_000, 8)), "n2", List.of(new LoadSample(50_000, 1))), h.snapshot());
        h.prune(200_000);
        assertEquals(Map.of(), h.snapshot());
    }

    @Test
    void keepsAtMostTheNewestSamplesPerNode() {
        NodeLoadHistory h = new NodeLoadHistory(1_000_000, 3);
        for (int i = 1; i <= 5; i++) {
            h.add("n", new LoadSample(i, i));
        }
        assertEquals(List.of(new LoadSample(3, 3), new LoadSample(4, 4), new LoadSample(5, 5)), h.snapshot().get("n"));
    }

    @Test
    void boundsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new NodeLoadHistory(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new NodeLoadHistory(1, 0));
    }
}
