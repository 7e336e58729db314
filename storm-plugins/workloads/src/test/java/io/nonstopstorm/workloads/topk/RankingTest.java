package io.nonstopstorm.workloads.topk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RankingTest {
    @Test
    void topOrdersByCountThenKeyAndCutsAtK() {
        Map<String, Long> counts = Map.of("a", 3L, "b", 5L, "c", 3L, "d", 1L);
        assertEquals(List.of(Map.entry("b", 5L), Map.entry("a", 3L), Map.entry("c", 3L)), Ranking.top(counts, 3));
        assertEquals(4, Ranking.top(counts, 10).size());
        assertThrows(IllegalArgumentException.class, () -> Ranking.top(counts, 0));
    }

    @Test
    void mergeOfPartialRankingsIsTheGlobalTop() {
        List<Map.Entry<String, Long>> task1 = List.of(Map.entry("x", 9L), Map.entry("y", 2L));
        List<Map.Entry<String, Long>> task2 = List.of(Map.entry("z", 4L), Map.entry("w", 3L));
        assertEquals(List.of(Map.entry("x", 9L), Map.entry("z", 4L)), Ranking.merge(List.of(task1, task2), 2));
    }

    @Test
    void windowCountsRankOneWindowThenStartAgain() {
        WindowCounts w = new WindowCounts();
        for (String k : List.of("a", "b", "b", "c", "b", "a")) {
            w.add(k);
        }
        assertEquals(List.of(Map.entry("b", 3L), Map.entry("a", 2L)), w.close(2));
        assertEquals(0, w.distinctKeys());
        w.add("c");
        assertEquals(List.of(Map.entry("c", 1L)), w.close(2));
    }

    @Test
    void aRankingSurvivesItsWireForm() {
        List<Map.Entry<String, Long>> r = List.of(Map.entry("k1", 7L), Map.entry("k2", 5L));
        assertEquals(r, WindowCountBolt.unflatten(WindowCountBolt.flatten(r)));
    }
}
