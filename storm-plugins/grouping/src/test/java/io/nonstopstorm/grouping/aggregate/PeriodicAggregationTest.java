package io.nonstopstorm.grouping.aggregate;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PeriodicAggregationTest {

    @Test
    void mergingPartialsFromSeveralWorkersAndPeriodsGivesTheTotals() {
        PartialCounts<String> w0 = new PartialCounts<>();
        PartialCounts<String> w1 = new PartialCounts<>();
        CountMerger<String> merger = new CountMerger<>();
        w0.add("a");
        w0.add("a");
        w1.add("a");
        w1.add("b");
        merger.merge(w0.drain());
        merger.merge(w1.drain());
        assertEquals(0, w0.size(), "drain resets");
        w0.add("b");
        merger.merge(w0.drain());
        merger.merge(w1.drain()); // empty period
        assertEquals(Map.of("a", 3L, "b", 2L), merger.totals());
        assertEquals(4, merger.partialEntries(), "a@w0, a@w1, b@w1, b@w0");
    }
}
