package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.state.SnapshotAssembler.Assembled;
import io.nonstopstorm.migration.state.SnapshotAssembler.Corrupt;
import io.nonstopstorm.migration.state.SnapshotAssembler.Gaps;
import io.nonstopstorm.migration.state.SnapshotAssembler.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SnapshotChunkingTest {
    private static final long MAX = 1 << 20;

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static SnapshotAssembler assemblerFor(SnapshotChunker c) {
        return new SnapshotAssembler(c.count(), c.totalBytes(), c.snapshotCrc(), MAX);
    }

    private static byte[] assembled(SnapshotAssembler a) {
        return assertInstanceOf(Assembled.class, a.finish()).snapshot();
    }

    @Test
    void chunksCoverTheSnapshotInOrderWithTheLastOneShort() {
        byte[] snap = bytes(250, 1);
        SnapshotChunker c = new SnapshotChunker(snap, 100);
        List<SnapshotChunk> chunks = c.all();
        assertEquals(3, chunks.size());
        assertEquals(List.of(100, 100, 50), chunks.stream().map(SnapshotChunk::length).toList());
        for (int i = 0; i < 3; i++) {
            assertEquals(i, chunks.get(i).index());
            assertEquals(3, chunks.get(i).count());
            assertEquals(250, chunks.get(i).totalBytes());
            assertTrue(chunks.get(i).intact());
        }
        SnapshotAssembler a = assemblerFor(c);
        chunks.forEach(ch -> assertEquals(Outcome.ACCEPTED, a.offer(ch).outcome()));
        assertTrue(a.complete());
        assertEquals(3, a.ackedBelow());
        assertArrayEquals(snap, assembled(a));
    }

    @Test
    void anExactMultipleAndAnEmptySnapshotSplitAsExpected() {
        assertEquals(2, new SnapshotChunker(bytes(200, 2), 100).count());
        SnapshotChunker empty = new SnapshotChunker(new byte[0], 100);
        assertEquals(1, empty.count());
        SnapshotAssembler a = assemblerFor(empty);
        assertEquals(Outcome.ACCEPTED, a.offer(empty.chunk(0)).outcome());
        assertArrayEquals(new byte[0], assembled(a));
    }

    @Test
    void outOfOrderAndDuplicateChunksAssembleTheSameSnapshot() {
        byte[] snap = bytes(1000, 3);
        SnapshotChunker c = new SnapshotChunker(snap, 64);
        List<SnapshotChunk> shuffled = new ArrayList<>(c.all());
        shuffled.addAll(c.all().subList(3, 9));
        Collections.shuffle(shuffled, new Random(7));
        SnapshotAssembler a = assemblerFor(c);
        int accepted = 0;
        int duplicates = 0;
        for (SnapshotChunk ch : shuffled) {
            Outcome o = a.offer(ch).outcome();
            accepted += o == Outcome.ACCEPTED ? 1 : 0;
            duplicates += o == Outcome.DUPLICATE ? 1 : 0;
        }
        assertEquals(c.count(), accepted);
        assertEquals(6, duplicates);
        assertArrayEquals(snap, assembled(a));
    }

    @Test
    void theCumulativeAcknowledgementStopsAtTheFirstGap() {
        SnapshotChunker c = new SnapshotChunker(bytes(500, 4), 100);
        SnapshotAssembler a = assemblerFor(c);
        a.offer(c.chunk(0));
        a.offer(c.chunk(2));
        a.offer(c.chunk(3));
        assertEquals(1, a.ackedBelow());
        a.offer(c.chunk(1));
        assertEquals(4, a.ackedBelow());
    }

    @Test
    void aLostChunkIsDetectedAtTheEndAndTheResendCompletesIt() {
        byte[] snap = bytes(500, 5);
        SnapshotChunker c = new SnapshotChunker(snap, 100);
        SnapshotAssembler a = assemblerFor(c);
        for (int i : List.of(0, 1, 3)) {
            a.offer(c.chunk(i));
        }
        assertFalse(a.complete());
        assertEquals(List.of(2, 4), assertInstanceOf(Gaps.class, a.finish()).missing());
        a.offer(c.chunk(2));
        a.offer(c.chunk(4));
        assertArrayEquals(snap, assembled(a));
    }

    @Test
    void aDamagedChunkIsRejectedAndLeavesItsIndexMissing() {
        SnapshotChunker c = new SnapshotChunker(bytes(300, 6), 100);
        SnapshotChunk good = c.chunk(1);
        byte[] flipped = good.data();
        flipped[7] ^= 1;
        SnapshotChunk bad = new SnapshotChunk(1, good.count(), good.totalBytes(), good.snapshotCrc(), good.chunkCrc(),
                                              flipped);
        SnapshotAssembler a = assemblerFor(c);
        SnapshotAssembler.Offer offer = a.offer(bad);
        assertEquals(Outcome.REJECTED, offer.outcome());
        assertTrue(offer.reason().contains("checksum"), offer.reason());
        a.offer(c.chunk(0));
        a.offer(c.chunk(2));
        assertEquals(List.of(1), assertInstanceOf(Gaps.class, a.finish()).missing());
    }

    @Test
    void aDifferentChunkUnderAHeldIndexIsRejectedAndTheHeldOneKept() {
        byte[] snap = bytes(300, 8);
        SnapshotChunker c = new SnapshotChunker(snap, 100);
        SnapshotAssembler a = assemblerFor(c);
        a.offer(c.chunk(1));
        byte[] other = bytes(100, 9);
        SnapshotChunk impostor = new SnapshotChunk(1, 3, 300, c.snapshotCrc(), SnapshotChunker.crc32c(other, 0, 100),
                                                   other);
        SnapshotAssembler.Offer offer = a.offer(impostor);
        assertEquals(Outcome.REJECTED, offer.outcome());
        assertTrue(offer.reason().contains("differs from the chunk already held"), offer.reason());
        a.offer(c.chunk(0));
        a.offer(c.chunk(2));
        assertArrayEquals(snap, assembled(a));
    }

    @Test
    void aChunkOfAnotherSnapshotOrOutOfRangeIsRejected() {
        SnapshotChunker c = new SnapshotChunker(bytes(300, 10), 100);
        SnapshotChunker other = new SnapshotChunker(bytes(300, 11), 100);
        SnapshotAssembler a = assemblerFor(c);
        assertTrue(a.offer(other.chunk(0)).reason().contains("another snapshot"));
        SnapshotChunk beyond = new SnapshotChunk(3, 3, 300, c.snapshotCrc(), SnapshotChunker.crc32c(new byte[0], 0, 0),
                                                 new byte[0]);
        assertTrue(a.offer(beyond).reason().contains("index outside"));
        assertEquals(0, a.ackedBelow());
        assertEquals(List.of(0, 1, 2), a.missing());
    }

    @Test
    void aForgedChunkMakesTheWholeCorruptAndAnOverrunIsRefusedWhereItEnters() {
        // Three intact chunks whose sizes add up to the announcement but not to the announced checksum.
        byte[] snap = bytes(300, 12);
        SnapshotChunker c = new SnapshotChunker(snap, 100);
        SnapshotAssembler a = assemblerFor(c);
        a.offer(c.chunk(0));
        a.offer(c.chunk(1));
        byte[] forged = bytes(100, 13);
        a.offer(new SnapshotChunk(2, 3, 300, c.snapshotCrc(), SnapshotChunker.crc32c(forged, 0, 100), forged));
        assertTrue(assertInstanceOf(Corrupt.class, a.finish()).reason().contains("checksum"));
        // A chunk that would overrun the announced size is refused where it enters.
        SnapshotAssembler b = assemblerFor(c);
        byte[] tooLong = bytes(250, 14);
        SnapshotAssembler.Offer offer = b.offer(new SnapshotChunk(0, 3, 300, c.snapshotCrc(),
                                                                  SnapshotChunker.crc32c(tooLong, 0, 250), tooLong));
        assertEquals(Outcome.ACCEPTED, offer.outcome());
        assertEquals(Outcome.REJECTED, b.offer(c.chunk(1)).outcome());
    }

    @Test
    void anAnnouncementOverTheTargetsLimitOrInconsistentIsRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SnapshotAssembler(2, 2000, 0, 1000))
                       .getMessage().contains(HandoffLimits.MAX_BYTES));
        assertThrows(IllegalArgumentException.class, () -> new SnapshotAssembler(0, 10, 0, 1000));
        assertThrows(IllegalArgumentException.class, () -> new SnapshotAssembler(11, 10, 0, 1000));
        assertThrows(IllegalArgumentException.class, () -> new SnapshotAssembler(2, 0, 0, 1000));
    }

    @Test
    void aChunkIsACopySoTheSenderMayReuseItsBuffer() {
        byte[] snap = bytes(10, 15);
        SnapshotChunk ch = new SnapshotChunker(snap, 10).chunk(0);
        snap[0] ^= 1;
        byte[] out = ch.data();
        out[1] ^= 1;
        assertTrue(ch.intact());
    }
}
