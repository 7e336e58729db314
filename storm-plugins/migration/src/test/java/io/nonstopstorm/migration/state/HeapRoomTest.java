package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeapRoomTest {
    private static final long MB = 1024 * 1024;

    @Test
    void aSnapshotWhoseTwiceFitsInTheFreeHeapIsTaken() {
        assertEquals(Optional.empty(), HeapRoom.refusal(10 * MB, 128 * MB, 40 * MB));
        assertEquals(Optional.empty(), HeapRoom.refusal(0, 128 * MB, 128 * MB));
    }

    @Test
    void aSnapshotTheHeapCannotTakeIsRefusedWithTheNumbers() {
        String why = HeapRoom.refusal(52 * MB, 128 * MB, 40 * MB).orElseThrow();
        assertEquals("this worker's heap cannot take a snapshot of 54525952 bytes: it needs about 109051904, "
                     + "92274688 of its 134217728 are free", why);
    }

    @Test
    void exactlyTwiceTheSnapshotFreeIsEnoughAndOneByteLessIsNot() {
        assertEquals(Optional.empty(), HeapRoom.refusal(50 * MB, 128 * MB, 28 * MB));
        assertTrue(HeapRoom.refusal(50 * MB, 128 * MB, 28 * MB + 1).isPresent());
    }

    @Test
    void aHeapWithoutALimitTakesAnything() {
        assertEquals(Optional.empty(), HeapRoom.refusal(Long.MAX_VALUE / 2 + 1, Long.MAX_VALUE, 1L << 40));
    }

    @Test
    void aHugeSnapshotDoesNotOverflowIntoFitting() {
        assertTrue(HeapRoom.refusal(Long.MAX_VALUE - 1, Long.MAX_VALUE - 1, 0).isPresent());
    }

    @Test
    void theHeapIsReadThroughItsInterface() {
        HeapRoom.Heap small = new HeapRoom.Heap() {
            @Override
            public long maxBytes() {
                return 100;
            }

            @Override
            public long usedBytes() {
                return 60;
            }
        };
        assertEquals(Optional.empty(), HeapRoom.refusal(20, small));
        assertTrue(HeapRoom.refusal(21, small).isPresent());
        assertTrue(HeapRoom.THIS_JVM.maxBytes() > 0 && HeapRoom.THIS_JVM.usedBytes() > 0);
    }
}
