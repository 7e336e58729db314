package io.nonstopstorm.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExecutorIdTest {

    @Test
    void anEmptyRangeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ExecutorId(5, 4));
        assertEquals("executor task range is empty: [5,4]", e.getMessage());
    }

    @Test
    void ordersByStartThenEnd() {
        List<ExecutorId> ids = new ArrayList<>(List.of(new ExecutorId(3, 4), ExecutorId.single(1), new ExecutorId(3, 3)));
        ids.sort(null);
        assertEquals(List.of(ExecutorId.single(1), new ExecutorId(3, 3), new ExecutorId(3, 4)), ids);
    }

    @Test
    void tasksAndContainment() {
        ExecutorId id = new ExecutorId(4, 6);
        assertEquals(List.of(4, 5, 6), id.tasks());
        assertEquals(3, id.taskCount());
        assertTrue(id.contains(5));
        assertFalse(id.contains(7));
        assertEquals(1, new ExecutorId(Integer.MAX_VALUE, Integer.MAX_VALUE).tasks().size(), "no wrap-around at 2^31-1");
    }

    @Test
    void stormIdsRoundTripAndTheSystemExecutorIsKnown() {
        assertEquals(new ExecutorId(2, 3), ExecutorId.fromStorm(Arrays.asList(2L, 3L)));
        assertEquals(List.of(2L, 3L), new ExecutorId(2, 3).toStorm());
        assertTrue(ExecutorId.fromStorm(List.of(-1L, -1L)).isSystem());
        assertFalse(ExecutorId.single(1).isSystem());
        assertThrows(IllegalArgumentException.class, () -> ExecutorId.fromStorm(List.of(1L)));
        assertThrows(IllegalArgumentException.class, () -> ExecutorId.fromStorm(List.of(1L, 1L << 32)));
    }

    @Test
    void aReaderNamesTheSpellingsItTakes() {
        assertEquals(new ExecutorId(3, 5), ExecutorId.parse("[3,5]", ExecutorId.Spelling.WIRE, ExecutorId.Spelling.UI));
        assertEquals(new ExecutorId(3, 5), ExecutorId.parse("[3-5]", ExecutorId.Spelling.WIRE, ExecutorId.Spelling.UI));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> ExecutorId.parse("[3, 5]", ExecutorId.Spelling.WIRE, ExecutorId.Spelling.UI));
        assertEquals("not an executor id (expected [start,end] or [start-end] without spaces): '[3, 5]'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ExecutorId.parse("[5-3]", ExecutorId.Spelling.UI));
    }

    @Test
    void boundsKeepLongsForTheSpanRule() {
        assertEquals(new ExecutorId.Bounds(1, 4294967297L),
                     ExecutorId.bounds("[1,4294967297]", ExecutorId.Spelling.WIRE));
        assertEquals(new ExecutorId.Bounds(0, 0), ExecutorId.bounds("[0-0]", ExecutorId.Spelling.WIRE, ExecutorId.Spelling.UI));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> ExecutorId.bounds("[1-2]", ExecutorId.Spelling.WIRE));
        assertEquals("not an executor id (expected [start,end] without spaces): '[1-2]'", e.getMessage());
    }
}
