package io.nonstopstorm.migration.state;

import java.nio.ByteBuffer;
import java.nio.BufferUnderflowException;

/**
 * The handoff's in-band messages. Each travels as the single value (a {@code byte[]}) of a tuple on the
 * sending component's {@code __system} stream, addressed to the moving task, so it rides the workers'
 * own ordered Netty connections and queues: a stream every component already has, so the topology's
 * serialiser knows it. The leading magic tells them apart from anything a component emits there.
 */
public sealed interface HandoffMessage {
    int MAGIC = 0x4E53484F;   // "NSHO"
    byte KIND_BARRIER = 1;
    byte KIND_CHUNK = 2;
    byte KIND_WAKE = 3;

    /** Source: the old instance reached the end of what it owns; snapshot now, on its own thread. */
    record Barrier(long planVersion) implements HandoffMessage {
    }

    /** Source to target: one piece of the snapshot, tagged with the move's plan version. */
    record Chunk(long planVersion, SnapshotChunk chunk) implements HandoffMessage {
    }

    /** Target: the gate's deadline passed; look at it even when no tuple arrives. */
    record Wake() implements HandoffMessage {
    }

    static byte[] barrier(long planVersion) {
        return ByteBuffer.allocate(13).putInt(MAGIC).put(KIND_BARRIER).putLong(planVersion).array();
    }

    static byte[] wake() {
        return ByteBuffer.allocate(5).putInt(MAGIC).put(KIND_WAKE).array();
    }

    static byte[] chunk(long planVersion, SnapshotChunk c) {
        byte[] data = c.dataNoCopy();
        return ByteBuffer.allocate(4 + 1 + 8 + 4 + 4 + 8 + 8 + 8 + 4 + data.length)
            .putInt(MAGIC).put(KIND_CHUNK).putLong(planVersion)
            .putInt(c.index()).putInt(c.count()).putLong(c.totalBytes()).putLong(c.snapshotCrc())
            .putLong(c.chunkCrc()).putInt(data.length).put(data).array();
    }

    /** Whether {@code value} is a handoff message at all (its magic), whatever its contents. */
    static boolean isHandoff(Object value) {
        return value instanceof byte[] b && b.length >= 5 && ByteBuffer.wrap(b).getInt() == MAGIC;
    }

    /**
     * Reads a message.
     *
     * @throws IllegalArgumentException if {@code value} is not a well-formed handoff message
     */
    static HandoffMessage decode(Object value) {
        if (!isHandoff(value)) {
            throw new IllegalArgumentException("not a handoff message");
        }
        ByteBuffer in = ByteBuffer.wrap((byte[]) value);
        in.getInt();
        byte kind = in.get();
        try {
            HandoffMessage m = switch (kind) {
                case KIND_BARRIER -> new Barrier(in.getLong());
                case KIND_WAKE -> new Wake();
                case KIND_CHUNK -> {
                    long version = in.getLong();
                    int index = in.getInt();
                    int count = in.getInt();
                    long total = in.getLong();
                    long snapshotCrc = in.getLong();
                    long chunkCrc = in.getLong();
                    int length = in.getInt();
                    if (length < 0 || length != in.remaining()) {
                        throw new IllegalArgumentException("handoff chunk says " + length + " bytes, carries "
                                                           + in.remaining());
                    }
                    byte[] data = new byte[length];
                    in.get(data);
                    yield new Chunk(version, new SnapshotChunk(index, count, total, snapshotCrc, chunkCrc, data));
                }
                default -> throw new IllegalArgumentException("unknown handoff message kind " + kind);
            };
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("handoff message of kind " + kind + " has " + in.remaining()
                                                   + " trailing bytes");
            }
            return m;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("handoff message of kind " + kind + " is truncated", e);
        }
    }
}
