package io.nonstopstorm.migration.state;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Splits one snapshot into numbered chunks of at most {@code chunkBytes}, each made on demand so that a
 * sender with a window of unacknowledged chunks holds only the snapshot and that window. An empty
 * snapshot is one empty chunk.
 */
public final class SnapshotChunker {
    private final byte[] snapshot;
    private final int chunkBytes;
    private final int count;
    private final long snapshotCrc;

    public SnapshotChunker(byte[] snapshot, int chunkBytes) {
        this.snapshot = Objects.requireNonNull(snapshot, "snapshot");
        if (chunkBytes <= 0) {
            throw new IllegalArgumentException("chunk size must be > 0 bytes, got " + chunkBytes);
        }
        this.chunkBytes = chunkBytes;
        this.count = chunkCount(snapshot.length, chunkBytes);
        this.snapshotCrc = crc32c(snapshot, 0, snapshot.length);
    }

    /** How many chunks a snapshot of this many bytes takes. */
    public static int chunkCount(long snapshotBytes, int chunkBytes) {
        if (snapshotBytes < 0 || chunkBytes <= 0) {
            throw new IllegalArgumentException("need bytes >= 0 and chunk size > 0, got " + snapshotBytes + ", "
                                               + chunkBytes);
        }
        long n = Math.max(1, (snapshotBytes + chunkBytes - 1) / chunkBytes);
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(snapshotBytes + " bytes in chunks of " + chunkBytes + " are too many");
        }
        return (int) n;
    }

    static long crc32c(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        return crc.getValue();
    }

    public int count() {
        return count;
    }

    public long totalBytes() {
        return snapshot.length;
    }

    public long snapshotCrc() {
        return snapshotCrc;
    }

    public SnapshotChunk chunk(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("chunk " + index + " of " + count);
        }
        int from = index * chunkBytes;
        int to = Math.min(snapshot.length, from + chunkBytes);
        return new SnapshotChunk(index, count, snapshot.length, snapshotCrc, crc32c(snapshot, from, to - from),
                                 Arrays.copyOfRange(snapshot, from, to));
    }

    /** Every chunk in order (for small snapshots and tests; a sender takes them one by one). */
    public List<SnapshotChunk> all() {
        List<SnapshotChunk> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(chunk(i));
        }
        return out;
    }
}
