package io.nonstopstorm.workloads.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nonstopstorm.workloads.join.WindowJoin.Side;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowJoinTest {
    @Test
    void itemsOfTheSameKeyJoinAcrossSidesOnly() {
        WindowJoin j = new WindowJoin(1000, 10);
        assertEquals(List.of(), j.add(Side.LEFT, "k", "l1", 0));
        assertEquals(List.of(), j.add(Side.LEFT, "k", "l2", 10));
        assertEquals(List.of(), j.add(Side.RIGHT, "other", "r0", 15));
        assertEquals(List.of("l1", "l2"), j.add(Side.RIGHT, "k", "r1", 20));
        assertEquals(List.of("r1"), j.add(Side.LEFT, "k", "l3", 30));
    }

    @Test
    void itemsOlderThanTheWindowNoLongerJoinAndAreDropped() {
        WindowJoin j = new WindowJoin(100, 10);
        j.add(Side.LEFT, "k", "old", 0);
        j.add(Side.LEFT, "gone", "x", 0);
        assertEquals(List.of(), j.add(Side.RIGHT, "k", "r", 101));
        // the sweep at 101 dropped both expired left items; only the right item stays
        assertEquals(1, j.size());
    }

    @Test
    void aKeyKeepsAtMostItsLimitPerSideOldestFirstOut() {
        WindowJoin j = new WindowJoin(1000, 2);
        j.add(Side.LEFT, "k", "a", 0);
        j.add(Side.LEFT, "k", "b", 1);
        j.add(Side.LEFT, "k", "c", 2);
        assertEquals(List.of("b", "c"), j.add(Side.RIGHT, "k", "r", 3));
    }

    @Test
    void nonsenseSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WindowJoin(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new WindowJoin(10, 0));
    }
}
