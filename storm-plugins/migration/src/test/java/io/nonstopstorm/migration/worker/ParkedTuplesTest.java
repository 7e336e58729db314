package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ParkedTuplesTest {

    @Test
    void tuplesWaitForTheirTaskAndComeOutInArrivalOrder() {
        ParkedTuples<String> p = new ParkedTuples<>(1000, 10);
        assertTrue(p.park(3, "a", 0));
        assertTrue(p.park(4, "x", 0));
        assertTrue(p.park(3, "b", 10));
        assertEquals(List.of("a", "b"), p.drain(List.of(3)));
        assertEquals(List.of(), p.drain(List.of(3)), "taken once");
        assertEquals(1, p.size());
    }

    @Test
    void oldTuplesExpireAndAFullParkRefuses() {
        ParkedTuples<String> p = new ParkedTuples<>(1000, 3);
        p.park(3, "old", 0);
        p.park(3, "new", 900);
        p.park(5, "other", 500);
        assertFalse(p.park(6, "over", 900), "capacity reached");
        assertEquals(1, p.expire(1001), "only the tuple older than the time-to-live");
        assertEquals(List.of("new"), p.drain(List.of(3)));
        assertEquals(1, p.expire(1501));
        assertEquals(0, p.size());
        assertTrue(p.park(6, "fits again", 1600));
    }
}
