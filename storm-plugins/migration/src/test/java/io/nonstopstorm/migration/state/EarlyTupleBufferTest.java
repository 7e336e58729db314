package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nonstopstorm.migration.state.EarlyTupleBuffer.Admission;
import java.util.List;
import org.junit.jupiter.api.Test;

class EarlyTupleBufferTest {

    /** A tuple whose estimated size is its length. */
    private final EarlyTupleBuffer<String> buffer = new EarlyTupleBuffer<>(10, String::length);

    @Test
    void holdsUpToTheByteBoundAndSaysFullBeyondIt() {
        assertEquals(Admission.HELD, buffer.offer("aaaa"));
        assertEquals(Admission.HELD, buffer.offer("bbbbbb"));
        assertEquals(10, buffer.bytes());
        assertEquals(Admission.FULL, buffer.offer("c"));
        assertEquals(2, buffer.size());
        assertEquals(10, buffer.bytes());
    }

    @Test
    void aFullBufferStillTakesATupleThatFits() {
        buffer.offer("aaaaaaaa");
        assertEquals(Admission.FULL, buffer.offer("bbb"));
        assertEquals(Admission.HELD, buffer.offer("cc"));
        assertEquals(List.of("aaaaaaaa", "cc"), buffer.release());
    }

    @Test
    void releasesInArrivalOrderAndEmpties() {
        for (String s : List.of("3", "1", "2", "1")) {
            buffer.offer(s);
        }
        assertEquals(List.of("3", "1", "2", "1"), buffer.release());
        assertEquals(0, buffer.size());
        assertEquals(0, buffer.bytes());
        assertEquals(List.of(), buffer.release());
        assertEquals(Admission.HELD, buffer.offer("0123456789"));
    }

    @Test
    void aTupleLargerThanTheBoundIsNeverHeld() {
        assertEquals(Admission.FULL, buffer.offer("01234567890"));
        assertEquals(0, buffer.size());
    }

    @Test
    void aZeroBoundHoldsOnlyEmptyTuplesAndANegativeOneIsRefused() {
        EarlyTupleBuffer<String> none = new EarlyTupleBuffer<>(0, String::length);
        assertEquals(Admission.FULL, none.offer("x"));
        assertEquals(Admission.HELD, none.offer(""));
        assertThrows(IllegalArgumentException.class, () -> new EarlyTupleBuffer<String>(-1, String::length));
    }
}
