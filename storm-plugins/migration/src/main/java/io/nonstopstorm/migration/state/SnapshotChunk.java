package io.nonstopstorm.migration.state;

import java.util.Arrays;
import java.util.Objects;

/**
 * One numbered piece of a snapshot, as HANDOFF_CHUNK carries it (the message adds the handoff id). It
 * repeats its snapshot's totals and checksum so that it can be checked against its snapshot on its own.
 *
 * @param index       0-based position in the snapshot
 * @param count       how many chunks the snapshot has
 * @param totalBytes  the whole snapshot's size
 * @param snapshotCrc CRC32C of the whole snapshot
 * @param chunkCrc    CRC32C of {@code data}
 */
public record SnapshotChunk(int index, int count, long totalBytes, long snapshotCrc, long chunkCrc, byte[] data) {

    public SnapshotChunk {
        Objects.requireNonNull(data, "data");
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    public int length() {
        return data.length;
    }

    /** Whether the data still matches its checksum. */
    public boolean intact() {
        return SnapshotChunker.crc32c(data, 0, data.length) == chunkCrc;
    }

    /** Whether the other chunk has the same header and the same bytes (a harmless duplicate). */
    public boolean sameAs(SnapshotChunk o) {
        return index == o.index && count == o.count && totalBytes == o.totalBytes && snapshotCrc == o.snapshotCrc
               && chunkCrc == o.chunkCrc && Arrays.equals(data, o.data);
    }

    byte[] dataNoCopy() {
        return data;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SnapshotChunk c && sameAs(c);
    }

    @Override
    public int hashCode() {
        return Objects.hash(index, count, totalBytes, snapshotCrc, chunkCrc, Arrays.hashCode(data));
    }

    @Override
    public String toString() {
        return "chunk " + index + "/" + count + " (" + data.length + " of " + totalBytes + " bytes)";
    }
}
