package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class MoveLogTest {

    private static RecordedMoves.Move move(String executor, int planVersion, long decidedAt) {
        return new RecordedMoves.Move("wc", "wc-1-100", planVersion, executor, "h:1", "h:2", "why", "plan", null,
            decidedAt);
    }

    @Test
    void keepsEarlierMovesAfterTheirDecisionWasReplacedNewestFirst() {
        MoveLog log = new MoveLog(5);
        log.record(List.of(move("[3-3]", 1, 100)));
        assertEquals(List.of(move("[4-4]", 2, 200), move("[3-3]", 1, 100)), log.record(List.of(move("[4-4]", 2, 200))));
    }

    @Test
    void readingTheSameDecisionAgainAddsNothing() {
        MoveLog log = new MoveLog(5);
        log.record(List.of(move("[3-3]", 1, 100)));
        assertEquals(List.of(move("[3-3]", 1, 100)), log.record(List.of(move("[3-3]", 1, 100))));
        assertEquals(2, log.record(List.of(move("[3-3]", 2, 300))).size(), "a later plan moving it again is a new move");
    }

    @Test
    void dropsTheOldestBeyondItsCapacity() {
        MoveLog log = new MoveLog(2);
        log.record(List.of(move("[1-1]", 1, 100), move("[2-2]", 1, 100)));
        assertEquals(List.of(move("[3-3]", 2, 300), move("[1-1]", 1, 100)), log.record(List.of(move("[3-3]", 2, 300))));
        assertEquals(List.of(move("[3-3]", 2, 300), move("[1-1]", 1, 100)), log.record(List.of()));
        assertThrows(IllegalArgumentException.class, () -> new MoveLog(0));
    }
}
