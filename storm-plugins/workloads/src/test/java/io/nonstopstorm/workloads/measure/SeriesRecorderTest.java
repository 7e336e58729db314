package io.nonstopstorm.workloads.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeriesRecorderTest {
    @Test
    void eventsLandInTheirSecondAndQuietSecondsAreReportedAsZeros() {
        SeriesRecorder r = new SeriesRecorder();
        r.start(10_000);
        r.emitted(10_100);
        r.emitted(10_200);
        r.acked(10_900, 5_000);
        assertTrue(r.drain(10_999).isEmpty());
        r.failed(13_500);
        r.replayed(13_600);
        List<SecondStats> s = r.drain(14_000);
        assertEquals(List.of(10L, 11L, 12L, 13L), s.stream().map(SecondStats::epochSecond).toList());
        assertEquals(2, s.get(0).emitted());
        assertEquals(1, s.get(0).acked());
        assertEquals(0, s.get(1).acked() + s.get(1).emitted() + s.get(2).failed());
        assertEquals(1, s.get(3).failed());
        assertEquals(1, s.get(3).replayed());
    }

    @Test
    void latencyPercentilesAreExactNearestRank() {
        SeriesRecorder r = new SeriesRecorder();
        for (int i = 1; i <= 100; i++) {
            r.acked(5_000, i * 1000L); // 1..100 ms
        }
        LatencySummary l = r.drain(6_000).get(0).latency();
        assertEquals(100, l.count());
        assertEquals(50.5, l.meanMs(), 1e-9);
        assertEquals(50.0, l.p50Ms(), 1e-9);
        assertEquals(99.0, l.p99Ms(), 1e-9);
        assertEquals(100.0, l.maxMs(), 1e-9);
    }

    @Test
    void drainAllClosesTheOpenSecondAtShutdown() {
        SeriesRecorder r = new SeriesRecorder();
        r.acked(7_100, 1000);
        List<SecondStats> s = r.drainAll(7_200);
        assertEquals(1, s.size());
        assertEquals(1, s.get(0).acked());
        assertTrue(r.drainAll(7_300).isEmpty());
    }

    @Test
    void gaugesAreSampledWhenASecondCloses() {
        SeriesRecorder r = new SeriesRecorder(new SeriesRecorder.Gauges() {
            public long pending() {
                return 7;
            }

            public double behindMs() {
                return 12.5;
            }

            public long badLines() {
                return 3;
            }

            public double targetRate() {
                return Double.NaN;
            }
        });
        r.emitted(1_000);
        SecondStats s = r.drain(2_000).get(0);
        assertEquals(7, s.pending());
        assertEquals(3, s.badLines());
        assertEquals(null, s.toMap("c", 1).get("target_rate"));
        assertEquals(12.5, s.toMap("c", 1).get("behind_ms"));
    }

    @Test
    void eachSecondCarriesTheLongestStretchWithoutAnAckEndingInIt() {
        SeriesRecorder r = new SeriesRecorder();
        r.start(1_000);
        r.acked(1_100, 0);
        r.acked(1_150, 0);
        r.acked(1_400, 0);                       // gaps 50 and 250 ms; open from 1400 to the end: 600
        r.acked(3_300, 0);                       // a 1900 ms stall ending in second 3
        r.acked(3_350, 0);
        List<SecondStats> s = r.drain(4_000);
        assertEquals(List.of(600L, 1600L, 1900L), s.stream().map(SecondStats::ackGapMs).toList());
        assertEquals(1900L, s.get(2).toMap("feed", 1).get("ack_gap_ms"));
    }

    @Test
    void noGapBeforeTheFirstAck() {
        SeriesRecorder r = new SeriesRecorder();
        r.start(1_000);
        r.emitted(1_100);
        List<SecondStats> s = r.drain(2_000);
        assertEquals(-1L, s.get(0).ackGapMs());
        assertEquals(null, s.get(0).toMap("feed", 1).get("ack_gap_ms"));
        assertTrue(s.get(0).toMap("feed", 1).containsKey("ack_gap_ms"));
    }
}
