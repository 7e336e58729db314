package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class HandoffMessageTest {
    private static final HandoffMessage.ReplyTo FROM = new HandoffMessage.ReplyTo("sup-a-\u00e9", 6701);

    @Test
    void aChunkSurvivesTheRoundTripWithItsHeaderAndBytes() {
        SnapshotChunk c = new SnapshotChunker("hello, handoff".getBytes(StandardCharsets.UTF_8), 5).chunk(1);
        HandoffMessage m = HandoffMessage.decode(HandoffMessage.chunk(42, 3, FROM, c));
        HandoffMessage.Chunk got = assertInstanceOf(HandoffMessage.Chunk.class, m);
        assertEquals(42, got.planVersion());
        assertEquals(3, got.attempt());
        assertEquals(FROM, got.replyTo());
        assertTrue(got.chunk().sameAs(c));
        assertTrue(got.chunk().intact());
    }

    @Test
    void aResendIsOfTheSameSnapshotButTheSameVersionFromAnotherSourceIsNot() {
        SnapshotChunk c = new SnapshotChunker(new byte[] {1, 2, 3}, 8).chunk(0);
        HandoffMessage.Chunk first = new HandoffMessage.Chunk(168, 1, FROM, c);
        assertTrue(first.ofSameSnapshotAs(new HandoffMessage.Chunk(168, 4, FROM, c)));
        // Plan versions count per node: node B's v168 moving the task back is not node A's v168.
        assertFalse(first.ofSameSnapshotAs(new HandoffMessage.Chunk(168, 1, new HandoffMessage.ReplyTo("sup-b", 6701), c)));
        assertFalse(first.ofSameSnapshotAs(new HandoffMessage.Chunk(168, 1, new HandoffMessage.ReplyTo("sup-a-\u00e9", 6702), c)));
        assertFalse(first.ofSameSnapshotAs(new HandoffMessage.Chunk(169, 1, FROM, c)));
    }

    @Test
    void anEmptySnapshotIsOneEmptyChunk() {
        SnapshotChunk c = new SnapshotChunker(new byte[0], 5).chunk(0);
        HandoffMessage.Chunk got = (HandoffMessage.Chunk) HandoffMessage.decode(HandoffMessage.chunk(1, 1, FROM, c));
        assertArrayEquals(new byte[0], got.chunk().data());
    }

    @Test
    void anInstallConfirmationCarriesItsPlanVersion() {
        assertEquals(new HandoffMessage.Installed(9, 17, 2), HandoffMessage.decode(HandoffMessage.installed(9, 17, 2)));
        assertThrows(IllegalArgumentException.class,
            () -> HandoffMessage.decode(Arrays.copyOf(HandoffMessage.installed(9, 17, 2), 20)));
    }

    @Test
    void aChunkWhoseReplyNodeLengthLiesIsRefused() {
        byte[] chunk = HandoffMessage.chunk(3, 1, FROM, new SnapshotChunker(new byte[] {1}, 8).chunk(0));
        chunk[17] = 0x7F;   // the reply node's length, far past the message
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HandoffMessage.decode(chunk));
        assertTrue(e.getMessage().contains("reply node"), e.getMessage());
    }

    @Test
    void barrierAndWakeRoundTrip() {
        assertEquals(new HandoffMessage.Barrier(7), HandoffMessage.decode(HandoffMessage.barrier(7)));
        assertEquals(new HandoffMessage.Wake(), HandoffMessage.decode(HandoffMessage.wake()));
    }

    @Test
    void anAbortCarriesItsPlanVersionAndReasonAndALongReasonIsCutToTheBound() {
        String why = "state of [5 5] is 9000 bytes, over nonstop.migration.state.max.bytes = 100";
        assertEquals(new HandoffMessage.Abort(12, why), HandoffMessage.decode(HandoffMessage.abort(12, why)));
        String longWhy = "\u00e9".repeat(HandoffMessage.MAX_REASON_BYTES);   // two UTF-8 bytes each
        HandoffMessage.Abort cut = (HandoffMessage.Abort) HandoffMessage.decode(HandoffMessage.abort(1, longWhy));
        assertTrue(cut.reason().endsWith("...") && !cut.reason().contains("\uFFFD"), cut.reason());
        assertTrue(cut.reason().getBytes(StandardCharsets.UTF_8).length <= HandoffMessage.MAX_REASON_BYTES);
        byte[] lying = HandoffMessage.abort(1, "x");
        lying[13] = 0x7F;   // a reason length far past the message
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HandoffMessage.decode(lying));
        assertTrue(e.getMessage().contains("reason"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> HandoffMessage.decode(Arrays.copyOf(HandoffMessage.abort(1, "xy"), 18)));
    }

    @Test
    void aRefusalCarriesItsMoveTaskAttemptAndReason() {
        String why = "this worker's heap cannot take a snapshot of 54525952 bytes: it needs about 109051904, "
                     + "92274688 of its 134217728 are free";
        assertEquals(new HandoffMessage.Declined(12, 5, 2, why),
                     HandoffMessage.decode(HandoffMessage.declined(12, 5, 2, why)));
        assertEquals(new HandoffMessage.Declined(1, 0, 1, ""), HandoffMessage.decode(HandoffMessage.declined(1, 0, 1, "")));
    }

    @Test
    void aRefusalsLongReasonIsCutToTheBoundOnACharacter() {
        String longWhy = "\u00e9".repeat(HandoffMessage.MAX_REASON_BYTES);   // two UTF-8 bytes each
        HandoffMessage.Declined cut =
            (HandoffMessage.Declined) HandoffMessage.decode(HandoffMessage.declined(3, 9, 1, longWhy));
        assertTrue(cut.reason().endsWith("...") && !cut.reason().contains("\uFFFD"), cut.reason());
        assertTrue(cut.reason().getBytes(StandardCharsets.UTF_8).length <= HandoffMessage.MAX_REASON_BYTES);
        assertEquals(9, cut.task());
    }

    @Test
    void aTruncatedOrLyingRefusalIsRejected() {
        byte[] declined = HandoffMessage.declined(3, 9, 1, "no room");
        assertThrows(IllegalArgumentException.class,
            () -> HandoffMessage.decode(Arrays.copyOf(declined, declined.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> HandoffMessage.decode(Arrays.copyOf(declined, 16)));
        byte[] lying = declined.clone();
        lying[21] = 0x7F;   // a reason length far past the message
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HandoffMessage.decode(lying));
        assertTrue(e.getMessage().contains("refusal says its reason"), e.getMessage());
        byte[] padded = Arrays.copyOf(declined, declined.length + 1);
        assertThrows(IllegalArgumentException.class, () -> HandoffMessage.decode(padded));
    }

    @Test
    void whatAComponentEmitsIsNotTakenForAMessage() {
        assertFalse(HandoffMessage.isHandoff("event"));
        assertFalse(HandoffMessage.isHandoff(new byte[] {1, 2, 3, 4, 5, 6}));
        assertFalse(HandoffMessage.isHandoff(new byte[] {0x4E, 0x53}));
        assertTrue(HandoffMessage.isHandoff(HandoffMessage.wake()));
        assertThrows(IllegalArgumentException.class, () -> HandoffMessage.decode("event"));
    }

    @Test
    void truncatedPaddedOrUnknownMessagesAreRefusedWithAReason() {
        byte[] chunk = HandoffMessage.chunk(3, 1, FROM, new SnapshotChunker(new byte[] {1, 2, 3}, 8).chunk(0));
        IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
            () -> HandoffMessage.decode(Arrays.copyOf(chunk, chunk.length - 1)));
        assertTrue(cut.getMessage().contains("carries"), cut.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HandoffMessage.decode(Arrays.copyOf(chunk, 20)));
        assertThrows(IllegalArgumentException.class,
            () -> HandoffMessage.decode(Arrays.copyOf(HandoffMessage.barrier(1), 14)));
        byte[] unknown = HandoffMessage.wake();
        unknown[4] = 9;
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class,
            () -> HandoffMessage.decode(unknown));
        assertTrue(kind.getMessage().contains("kind 9"), kind.getMessage());
    }
}
