package io.nonstopstorm.migration.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reassembles one snapshot on the target from chunks in any order. A chunk is checked where it enters:
 * against the snapshot announced by HANDOFF_BEGIN, its own checksum, and the size announced. An identical
 * duplicate (a resend that crossed an acknowledgement) is ignored; a different chunk under a taken index
 * is rejected. Not thread-safe: one handoff's chunks arrive on one connection.
 */
public final class SnapshotAssembler {

    /** What happened to one offered chunk. */
    public enum Outcome {
        ACCEPTED,
        /** Already held with the same bytes; nothing changed. */
        DUPLICATE,
        /** Not part of this snapshot, or damaged; nothing changed. */
        REJECTED
    }

    /** @param reason why a chunk was rejected, or null */
    public record Offer(Outcome outcome, String reason) {
    }

    /** What {@link #finish} found. */
    public sealed interface Result {
    }

    /** The whole snapshot, checked against its size and checksum. */
    public record Assembled(byte[] snapshot) implements Result {
    }

    /** Chunks not received: the target names them in HANDOFF_MISSING. */
    public record Gaps(List<Integer> missing) implements Result {
        public Gaps {
            missing = List.copyOf(missing);
        }
    }

    /** Every chunk arrived but the whole does not match what HANDOFF_BEGIN announced. */
    public record Corrupt(String reason) implements Result {
    }

    private final int count;
    private final long totalBytes;
    private final long snapshotCrc;
    private final byte[][] chunks;
    private int received;
    private long receivedBytes;
    private int ackedBelow;

    /**
     * @param maxBytes the target's own limit: a snapshot announced larger is refused before any chunk is held
     * @throws IllegalArgumentException if the announcement is inconsistent or over {@code maxBytes}
     */
    public SnapshotAssembler(int count, long totalBytes, long snapshotCrc, long maxBytes) {
        if (totalBytes < 0 || count < 1 || count > Math.max(1, totalBytes)) {
            throw new IllegalArgumentException("a snapshot of " + totalBytes + " bytes cannot have " + count
                                               + " chunks");
        }
        long limit = Math.min(maxBytes, HandoffLimits.LARGEST_SNAPSHOT);
        if (totalBytes > limit) {
            throw new IllegalArgumentException("a snapshot of " + totalBytes + " bytes is over "
                                               + HandoffLimits.MAX_BYTES + " = " + limit);
        }
        this.count = count;
        this.totalBytes = totalBytes;
        this.snapshotCrc = snapshotCrc;
        this.chunks = new byte[count][];
    }

    public Offer offer(SnapshotChunk c) {
        Objects.requireNonNull(c, "chunk");
        if (c.count() != count || c.totalBytes() != totalBytes || c.snapshotCrc() != snapshotCrc) {
            return rejected(c, "belongs to another snapshot (" + c.count() + " chunks, " + c.totalBytes()
                               + " bytes, crc " + c.snapshotCrc() + ")");
        }
        if (c.index() < 0 || c.index() >= count) {
            return rejected(c, "index outside 0.." + (count - 1));
        }
        if (!c.intact()) {
            return rejected(c, "checksum does not match its data");
        }
        byte[] held = chunks[c.index()];
        if (held != null) {
            return java.util.Arrays.equals(held, c.dataNoCopy()) ? new Offer(Outcome.DUPLICATE, null)
                : rejected(c, "differs from the chunk already held under that index");
        }
        if (receivedBytes + c.length() > totalBytes) {
            return rejected(c, "would make " + (receivedBytes + c.length()) + " bytes of " + totalBytes);
        }
        chunks[c.index()] = c.dataNoCopy();
        received++;
        receivedBytes += c.length();
        while (ackedBelow < count && chunks[ackedBelow] != null) {
            ackedBelow++;
        }
        return new Offer(Outcome.ACCEPTED, null);
    }

    private static Offer rejected(SnapshotChunk c, String why) {
        return new Offer(Outcome.REJECTED, c + " " + why);
    }

    /** Every chunk below this index is held: the cumulative HANDOFF_ACK. */
    public int ackedBelow() {
        return ackedBelow;
    }

    public boolean complete() {
        return received == count;
    }

    public List<Integer> missing() {
        List<Integer> out = new ArrayList<>();
        for (int i = ackedBelow; i < count; i++) {
            if (chunks[i] == null) {
                out.add(i);
            }
        }
        return out;
    }

    /** At HANDOFF_END: the snapshot, the gaps to ask for again, or why the whole is corrupt. */
    public Result finish() {
        if (!complete()) {
            return new Gaps(missing());
        }
        if (receivedBytes != totalBytes) {
            return new Corrupt("chunks hold " + receivedBytes + " bytes, the snapshot " + totalBytes);
        }
        byte[] out = new byte[(int) totalBytes];
        int at = 0;
        for (byte[] c : chunks) {
            System.arraycopy(c, 0, out, at, c.length);
            at += c.length;
        }
        long crc = SnapshotChunker.crc32c(out, 0, out.length);
        if (crc != snapshotCrc) {
            return new Corrupt("snapshot checksum " + crc + " differs from the announced " + snapshotCrc);
        }
        return new Assembled(out);
    }
}
