package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HandoffGateTest {
    /** Chunks of 4 bytes, an early buffer of 10 "bytes" (a tuple's size is its length). */
    private static final HandoffLimits LIMITS = new HandoffLimits(100, 4, 10, 1000, 2);
    private static final long DEADLINE = 5000;

    private final HandoffGate<String> gate = new HandoffGate<>(LIMITS, String::length, DEADLINE);

    private static List<SnapshotChunk> chunksOf(byte[] snapshot) {
        return new SnapshotChunker(snapshot, LIMITS.chunkBytes()).all();
    }

    @Test
    void holdsTuplesUntilTheWholeSnapshotIsInThenReleasesThemInArrivalOrder() {
        assertEquals(List.of(), gate.offer("a", 10));
        assertEquals(List.of(), gate.offer("b", 20));
        byte[] snapshot = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        List<SnapshotChunk> chunks = chunksOf(snapshot);
        assertEquals(3, chunks.size());
        // Out of order: the snapshot is whole only with the last missing piece.
        assertEquals(Optional.empty(), gate.chunk(4, chunks.get(2)));
        assertEquals(Optional.empty(), gate.chunk(4, chunks.get(0)));
        assertEquals(List.of(), gate.offer("c", 30));
        byte[] whole = gate.chunk(4, chunks.get(1)).orElseThrow();
        assertArrayEquals(snapshot, whole);
        assertFalse(gate.isOpen());
        assertEquals(List.of("a", "b", "c"), gate.installed());
        assertEquals("installed", gate.openedBecause());
        assertEquals(List.of("d"), gate.offer("d", 40));
    }

    @Test
    void aResentSnapshotIsReturnedWholeOnceBeforeAndAfterTheInstall() {
        byte[] snapshot = {1, 2, 3, 4, 5, 6};
        List<SnapshotChunk> chunks = chunksOf(snapshot);
        gate.offer("a", 10);
        assertEquals(Optional.empty(), gate.chunk(4, chunks.get(0)));
        assertArrayEquals(snapshot, gate.chunk(4, chunks.get(1)).orElseThrow());
        assertTrue(gate.completed(4));
        assertFalse(gate.completed(5));
        // The source's resend (its confirmation was not in yet) crosses the pending install: ignored.
        for (SnapshotChunk c : chunks) {
            assertEquals(Optional.empty(), gate.chunk(4, c));
        }
        assertEquals(List.of("a"), gate.installed());
        // After the install, too: no second snapshot, no error.
        for (SnapshotChunk c : chunks) {
            assertEquals(Optional.empty(), gate.chunk(4, c));
        }
        assertEquals(List.of("b"), gate.offer("b", 20));
    }

    @Test
    void onlyAChunkOfASnapshotNotYetBegunStartsOne() {
        List<SnapshotChunk> chunks = chunksOf(new byte[] {1, 2, 3, 4, 5, 6});
        assertTrue(gate.startsSnapshot(4));
        gate.chunk(4, chunks.get(0));
        assertFalse(gate.startsSnapshot(4), "its assembly started");
        assertFalse(gate.startsSnapshot(3), "an older move is ignored");
        assertTrue(gate.startsSnapshot(5), "a newer move starts over");
        gate.chunk(4, chunks.get(1));
        assertFalse(gate.startsSnapshot(4), "completed");
        gate.abandon("declined");
        assertFalse(gate.startsSnapshot(5), "the gate is open");
    }

    @Test
    void opensEmptyAtTheDeadlineWithTheHeldTuplesFirst() {
        gate.offer("a", 10);
        assertEquals(List.of(), gate.expire(DEADLINE - 1));
        assertEquals(List.of("a", "b"), gate.offer("b", DEADLINE));
        assertTrue(gate.openedBecause().contains("deadline"));
        assertThrows(IllegalStateException.class, () -> gate.chunk(1, chunksOf(new byte[] {1}).get(0)));
    }

    @Test
    void aWakeUpAtTheDeadlineReleasesWhatIsHeldWithoutANewTuple() {
        gate.offer("a", 10);
        assertEquals(List.of("a"), gate.expire(DEADLINE));
        assertEquals(List.of(), gate.expire(DEADLINE + 1));
    }

    @Test
    void aFullEarlyBufferKeepsTheGateClosedHoldsEveryTupleInOrderAndAsksForBackPressure() {
        assertEquals(List.of(), gate.offer("aaaaaaaa", 10));
        assertFalse(gate.full());
        assertEquals(List.of(), gate.offer("bbbbb", 20));    // past the bound of 10
        assertFalse(gate.isOpen(), "a full buffer must not start the instance without its state");
        assertTrue(gate.full());
        assertTrue(gate.fullBecause().contains(HandoffLimits.EARLY_BUFFER_BYTES), gate.fullBecause());
        // Small enough for the buffer, but behind one past it: it stays behind, so arrival order is kept.
        assertEquals(List.of(), gate.offer("c", 30));
        assertEquals(3, gate.held());
        byte[] snapshot = {1, 2, 3};
        assertArrayEquals(snapshot, gate.chunk(2, chunksOf(snapshot).get(0)).orElseThrow());
        assertEquals(List.of("aaaaaaaa", "bbbbb", "c"), gate.installed());
        assertEquals("installed", gate.openedBecause());
        assertFalse(gate.full());
        assertEquals(0, gate.held());
        assertEquals(List.of("d"), gate.offer("d", 40));
    }

    @Test
    void aFullEarlyBufferStillOpensEmptyAtTheDeadlineWithEverythingHeldFirst() {
        gate.offer("aaaaaaaaaa", 10);
        gate.offer("bb", 20);
        assertTrue(gate.full());
        assertEquals(List.of("aaaaaaaaaa", "bb"), gate.expire(DEADLINE));
        assertTrue(gate.openedBecause().contains("deadline"), gate.openedBecause());
        assertFalse(gate.full());
        assertEquals(null, gate.fullBecause());
    }

    @Test
    void aDamagedChunkIsRejectedAndTheOldMoveIsIgnoredForANewerOne() {
        byte[] older = {9, 9, 9, 9, 9};
        byte[] newer = {1, 2, 3};
        assertEquals(Optional.empty(), gate.chunk(5, chunksOf(older).get(0)));
        assertArrayEquals(newer, gate.chunk(6, chunksOf(newer).get(0)).orElseThrow());
        SnapshotChunk c = chunksOf(new byte[] {4, 5}).get(0);
        HandoffGate<String> other = new HandoffGate<>(LIMITS, String::length, DEADLINE);
        SnapshotChunk damaged = new SnapshotChunk(c.index(), c.count(), c.totalBytes(), c.snapshotCrc(),
                                                  c.chunkCrc() + 1, c.data());
        assertThrows(IllegalArgumentException.class, () -> other.chunk(1, damaged));
        other.offer("x", 1);
        assertEquals(List.of("x"), other.abandon("snapshot rejected"));
        assertEquals("snapshot rejected", other.openedBecause());
    }

    @Test
    void aStaleChunkAfterANewerMoveStartedIsIgnored() {
        List<SnapshotChunk> newer = chunksOf(new byte[] {1, 2, 3, 4, 5});
        assertEquals(Optional.empty(), gate.chunk(8, newer.get(0)));
        assertEquals(Optional.empty(), gate.chunk(7, chunksOf(new byte[] {7}).get(0)));
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, gate.chunk(8, newer.get(1)).orElseThrow());
    }

    @Test
    void limitsComeFromTheConfWithDefaultsAndNamedErrors() {
        assertEquals(HandoffLimits.DEFAULTS, HandoffLimits.fromConf(Map.of()));
        HandoffLimits l = HandoffLimits.fromConf(Map.of(HandoffLimits.MAX_BYTES, "2048", HandoffLimits.CHUNK_BYTES, 512,
                                                        HandoffLimits.TRANSFER_TIMEOUT_MS, 100L));
        assertEquals(new HandoffLimits(2048, 512, HandoffLimits.DEFAULTS.earlyBufferBytes(), 100,
                                       HandoffLimits.DEFAULTS.maxResends()), l);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> HandoffLimits.fromConf(Map.of(HandoffLimits.CHUNK_BYTES, "big")));
        assertTrue(bad.getMessage().contains(HandoffLimits.CHUNK_BYTES), bad.getMessage());
        assertTrue(HandoffLimits.enabled(Map.of()));
        assertFalse(HandoffLimits.enabled(Map.of(HandoffLimits.HANDOFF, "false")));
        assertThrows(IllegalArgumentException.class, () -> HandoffLimits.enabled(Map.of(HandoffLimits.HANDOFF, "yes")));
    }
}
