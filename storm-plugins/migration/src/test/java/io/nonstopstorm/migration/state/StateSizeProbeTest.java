package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class StateSizeProbeTest {

    @Test
    void aTaskNeverMeasuredIsDueAtOnce() {
        StateSizeProbe p = new StateSizeProbe(10_000);
        assertEquals(List.of(3, 5), p.due(List.of(3, 5), 0));
    }

    @Test
    void aCheapMeasurementIsRepeatedAfterTheInterval() {
        StateSizeProbe p = new StateSizeProbe(10_000);
        p.measured(3, 1_000, 2);
        assertEquals(List.of(), p.due(List.of(3), 10_999));
        assertEquals(List.of(3), p.due(List.of(3), 11_000));
    }

    @Test
    void aCostlyMeasurementWaitsAHundredTimesItsDuration() {
        StateSizeProbe p = new StateSizeProbe(10_000);
        p.measured(3, 1_000, 300);                       // 300 ms to serialise: next in 30 s, not 10 s
        assertEquals(List.of(), p.due(List.of(3), 30_999));
        assertEquals(List.of(3), p.due(List.of(3), 31_000));
    }

    @Test
    void eachTaskKeepsItsOwnSchedule() {
        StateSizeProbe p = new StateSizeProbe(1_000);
        p.measured(3, 0, 50);                            // next at 5 s
        p.measured(5, 0, 1);                             // next at 1 s
        assertEquals(List.of(5, 7), p.due(List.of(3, 5, 7), 2_000));
    }

    @Test
    void aTaskThatCannotBeMeasuredIsNeverDueAgain() {
        StateSizeProbe p = new StateSizeProbe(1_000);
        p.never(3);
        assertEquals(List.of(5), p.due(List.of(3, 5), Long.MAX_VALUE));
    }

    @Test
    void hugeDurationsDoNotOverflow() {
        assertEquals(Long.MAX_VALUE, StateSizeProbe.gapMs(1_000, Long.MAX_VALUE / 2));
        assertEquals(1_000, StateSizeProbe.gapMs(1_000, -5));
    }

    @Test
    void theIntervalMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new StateSizeProbe(0));
    }
}
