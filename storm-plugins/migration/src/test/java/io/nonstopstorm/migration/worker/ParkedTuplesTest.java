package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ParkedTuplesTest {

    /** One byte per character: the tests choose the sizes. */
    private static ParkedTuples<String> park(int capacity, long maxBytes) {
        return new ParkedTuples<>(1000, capacity, maxBytes, String::length);
    }

    @Test
    void tuplesWaitForTheirTaskAndComeOutInArrivalOrder() {
        ParkedTuples<String> p = park(10, 1000);
        assertTrue(p.park(3, "a", 0));
        assertTrue(p.park(4, "x", 0));
        assertTrue(p.park(3, "b", 10));
        assertEquals(List.of("a", "b"), p.drain(List.of(3)));
        assertEquals(List.of(), p.drain(List.of(3)), "taken once");
        assertEquals(1, p.size());
        assertEquals(1, p.bytes());
    }

    @Test
    void oldTuplesExpireAndAFullParkRefuses() {
        ParkedTuples<String> p = park(3, 1000);
        p.park(3, "old", 0);
        p.park(3, "new", 900);
        p.park(5, "other", 500);
        assertFalse(p.park(6, "over", 900), "capacity reached");
        assertEquals(1, p.expire(1001), "only the tuple older than the time-to-live");
        assertEquals(List.of("new"), p.drain(List.of(3)));
        assertEquals(1, p.expire(1501));
        assertEquals(0, p.size());
        assertEquals(0, p.bytes());
        assertTrue(p.park(6, "fits again", 1600));
    }

    @Test
    void theByteBoundRefusesWhatWouldPassItAndFreesWithDrainAndExpiry() {
        ParkedTuples<String> p = park(100, 10);
        assertTrue(p.park(1, "123456", 0));
        assertFalse(p.park(2, "12345", 0), "6 + 5 bytes > 10");
        assertTrue(p.park(2, "1234", 0), "6 + 4 bytes = the bound");
        assertEquals(10, p.bytes());
        assertEquals(List.of("123456"), p.drain(List.of(1)));
        assertTrue(p.park(3, "12345", 10));
        assertEquals(1, p.expire(1001 + 5));
        assertEquals(5, p.bytes());
    }

    @Test
    void theBoundIsReportedOncePerMove() {
        ParkedTuples<String> p = park(1, 1000);
        assertEquals(Optional.empty(), p.boundNotice(), "nothing refused yet");
        p.park(1, "a", 0);
        p.park(1, "b", 0);
        p.park(1, "c", 0);
        assertTrue(p.boundNotice().orElseThrow().contains("count bound of 1 tuples"));
        p.park(1, "d", 0);
        assertEquals(Optional.empty(), p.boundNotice(), "once per move");
        p.newMove();
        assertEquals(Optional.empty(), p.boundNotice(), "the new move has refused nothing yet");
        p.park(1, "e", 0);
        assertTrue(p.boundNotice().isPresent());
    }

    @Test
    void aHundredThousandLargeTuplesStayWithinTheByteBound() {
        ParkedTuples<List<?>> p = new ParkedTuples<>(1000, 100_000, 32L << 20, TupleSizeEstimate::of);
        String kilobyte = "x".repeat(1024);
        int parked = 0;
        for (int i = 0; i < 100_000; i++) {
            parked += p.park(i % 7, List.of(kilobyte, i), 0) ? 1 : 0;
        }
        assertTrue(p.bytes() <= 32L << 20, "estimated " + p.bytes());
        assertTrue(parked < 100_000 && parked > 10_000, "the byte bound, not the count, stopped it: " + parked);
        assertTrue(p.boundNotice().orElseThrow().contains("byte bound"));
    }
}
