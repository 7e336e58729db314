package io.nonstopstorm.workloads.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PacerTest {
    private static final double EPS = 1e-9;

    @Test
    void constantRateSpacesItemsEvenlyStartingOneIntervalIn() {
        Pacer p = new Pacer(RateSchedule.constant(100));
        assertEquals(0.01, p.timeOf(0), EPS);
        assertEquals(0.10, p.timeOf(9), EPS);
        assertEquals(500.0, p.dueAt(5.0), EPS);
    }

    @Test
    void stepsIntegrateAcrossBoundariesAndZeroRatePausesTheFeed() {
        // 10/s for 2 s (20 items), nothing for 3 s, then 100/s.
        Pacer p = new Pacer(RateSchedule.of(List.of(new RateSchedule.Step(0, 10), new RateSchedule.Step(2, 0),
            new RateSchedule.Step(5, 100))));
        assertEquals(2.0, p.timeOf(19), EPS);
        assertEquals(5.01, p.timeOf(20), EPS);
        assertEquals(20.0, p.dueAt(4.9), EPS);
        assertEquals(120.0, p.dueAt(6.0), EPS);
    }

    @Test
    void aScheduleThatEndsAtZeroNeverReachesLaterItems() {
        Pacer p = new Pacer(RateSchedule.of(List.of(new RateSchedule.Step(0, 1), new RateSchedule.Step(3, 0))));
        assertEquals(3.0, p.timeOf(2), EPS);
        assertEquals(Double.POSITIVE_INFINITY, p.timeOf(3));
    }

    @Test
    void switchingKeepsTheTimesOfItemsAlreadyDue() {
        Pacer slow = new Pacer(RateSchedule.constant(10));
        Pacer fast = slow.switchTo(RateSchedule.constant(1000), 1.0); // 10 items due by t = 1
        assertEquals(slow.timeOf(4), fast.timeOf(4), EPS);
        assertEquals(1.0, fast.timeOf(9), EPS);
        assertEquals(1.001, fast.timeOf(10), EPS);
        assertEquals(1010.0, fast.dueAt(2.0), EPS);
    }

    @Test
    void scheduleTextIsParsedWithCommentsAndCommas() {
        RateSchedule s = RateSchedule.parse("# warm up\n0 100\n30, 250  # peak\n\n60 0\n");
        assertEquals(List.of(new RateSchedule.Step(0, 100), new RateSchedule.Step(30, 250), new RateSchedule.Step(60, 0)),
            s.steps());
        assertEquals(250, s.rateAt(45), EPS);
        assertEquals(50, s.scaled(0.5).rateAt(0), EPS);
    }

    @Test
    void badScheduleTextNamesTheLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> RateSchedule.parse("0 100\n10 fast\n"));
        assertTrue(e.getMessage().startsWith("line 2:"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("10 5\n0 5\n"));
        assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("0 -1\n"));
        assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("# nothing\n"));
    }
}
