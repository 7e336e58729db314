package io.nonstopstorm.migration.state;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

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
    byte KIND_ABORT = 4;
    byte KIND_INSTALLED = 5;
    byte KIND_DECLINED = 6;
    /** The longest supervisor id a chunk's reply address carries, in UTF-8 bytes. */
    int MAX_NODE_BYTES = 1024;
    /** The longest reason an abort or a refusal carries, in UTF-8 bytes: enough for a log line, never a big message. */
    int MAX_REASON_BYTES = 1024;

    /** Source: the old instance reached the end of what it owns; snapshot now, on its own thread. */
    record Barrier(long planVersion) implements HandoffMessage {
    }

    /**
     * Source to target: one piece of the snapshot, tagged with the move's plan version, the attempt that sent
     * it (1, then one more for each resend of the whole snapshot) and where the source's worker is, so the
     * target can confirm the install to it ({@link Installed}).
     */
    record Chunk(long planVersion, int attempt, ReplyTo replyTo, SnapshotChunk chunk) implements HandoffMessage {
        public Chunk {
            java.util.Objects.requireNonNull(replyTo, "replyTo");
            java.util.Objects.requireNonNull(chunk, "chunk");
        }

        /**
         * Whether {@code other} belongs to the same snapshot (a resend, any attempt). Plan versions are counted
         * per node, so the same version from another source worker is another move.
         */
        public boolean ofSameSnapshotAs(Chunk other) {
            return planVersion == other.planVersion && replyTo.equals(other.replyTo);
        }
    }

    /** The source's worker: its supervisor (Storm's assignment id) and port. */
    record ReplyTo(String node, int port) {
        public ReplyTo {
            java.util.Objects.requireNonNull(node, "node");
        }
    }

    /**
     * Target to source: the snapshot of this move (plan version) is installed in this task's new instance; the
     * source may drop its copy. It names the task because it is addressed to any task of the source's worker
     * (the target's routing sends the moving task's own tuples to itself). {@code attempt} is the attempt whose
     * chunks completed the installed snapshot.
     */
    record Installed(long planVersion, int task, int attempt) implements HandoffMessage {
    }

    /**
     * Target to source: this task's new home cannot take the snapshot of this move (its heap, the reason says)
     * and started the task without it; the source may drop its copy and stop resending. Addressed like
     * {@link Installed}; {@code attempt} is the attempt whose chunk was declined.
     */
    record Declined(long planVersion, int task, int attempt, String reason) implements HandoffMessage {
        public Declined {
            java.util.Objects.requireNonNull(reason, "reason");
        }
    }

    /** Target: the gate's deadline passed; look at it even when no tuple arrives. */
    record Wake() implements HandoffMessage {
    }

    /** Source to target: the old instance keeps the state of this move (and why); no chunk will come. */
    record Abort(long planVersion, String reason) implements HandoffMessage {
        public Abort {
            java.util.Objects.requireNonNull(reason, "reason");
        }
    }

    static byte[] barrier(long planVersion) {
        return ByteBuffer.allocate(13).putInt(MAGIC).put(KIND_BARRIER).putLong(planVersion).array();
    }

    static byte[] wake() {
        return ByteBuffer.allocate(5).putInt(MAGIC).put(KIND_WAKE).array();
    }

    static byte[] abort(long planVersion, String reason) {
        byte[] why = reasonBytes(reason);
        return ByteBuffer.allocate(4 + 1 + 8 + 4 + why.length).putInt(MAGIC).put(KIND_ABORT).putLong(planVersion)
            .putInt(why.length).put(why).array();
    }

    static byte[] declined(long planVersion, int task, int attempt, String reason) {
        byte[] why = reasonBytes(reason);
        return ByteBuffer.allocate(4 + 1 + 8 + 4 + 4 + 4 + why.length).putInt(MAGIC).put(KIND_DECLINED)
            .putLong(planVersion).putInt(task).putInt(attempt).putInt(why.length).put(why).array();
    }

    /** A reason in UTF-8, at most {@link #MAX_REASON_BYTES}. */
    private static byte[] reasonBytes(String reason) {
        byte[] why = reason.getBytes(StandardCharsets.UTF_8);
        if (why.length > MAX_REASON_BYTES) {
            // Cut on a character boundary so the receiver reads valid text.
            String cut = new String(java.util.Arrays.copyOf(why, MAX_REASON_BYTES - 3), StandardCharsets.UTF_8);
            why = (cut.endsWith("\uFFFD") ? cut.substring(0, cut.length() - 1) : cut).concat("...")
                .getBytes(StandardCharsets.UTF_8);
        }
        return why;
    }

    /** Reads a reason's length and text, refusing a length over the bound or past the message. */
    private static String readReason(ByteBuffer in, String what) {
        int length = in.getInt();
        if (length < 0 || length > MAX_REASON_BYTES || length > in.remaining()) {
            throw new IllegalArgumentException("handoff " + what + " says its reason is " + length + " bytes, carries "
                                               + in.remaining() + " (at most " + MAX_REASON_BYTES + ")");
        }
        byte[] why = new byte[length];
        in.get(why);
        return new String(why, StandardCharsets.UTF_8);
    }

    static byte[] installed(long planVersion, int task, int attempt) {
        return ByteBuffer.allocate(21).putInt(MAGIC).put(KIND_INSTALLED).putLong(planVersion).putInt(task)
            .putInt(attempt).array();
    }

    static byte[] chunk(long planVersion, int attempt, ReplyTo replyTo, SnapshotChunk c) {
        byte[] data = c.dataNoCopy();
        byte[] node = replyTo.node().getBytes(StandardCharsets.UTF_8);
        if (node.length > MAX_NODE_BYTES) {
            throw new IllegalArgumentException("supervisor id of " + node.length + " bytes, over " + MAX_NODE_BYTES);
        }
        return ByteBuffer.allocate(4 + 1 + 8 + 4 + 4 + node.length + 4 + 4 + 4 + 8 + 8 + 8 + 4 + data.length)
            .putInt(MAGIC).put(KIND_CHUNK).putLong(planVersion).putInt(attempt)
            .putInt(node.length).put(node).putInt(replyTo.port())
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
                case KIND_INSTALLED -> new Installed(in.getLong(), in.getInt(), in.getInt());
                case KIND_ABORT -> {
                    long version = in.getLong();
                    yield new Abort(version, readReason(in, "abort"));
                }
                case KIND_DECLINED -> {
                    long version = in.getLong();
                    int task = in.getInt();
                    int attempt = in.getInt();
                    yield new Declined(version, task, attempt, readReason(in, "refusal"));
                }
                case KIND_CHUNK -> {
                    long version = in.getLong();
                    int attempt = in.getInt();
                    int nodeLength = in.getInt();
                    if (nodeLength < 0 || nodeLength > MAX_NODE_BYTES || nodeLength > in.remaining()) {
                        throw new IllegalArgumentException("handoff chunk says its reply node is " + nodeLength
                                                           + " bytes, carries " + in.remaining() + " (at most "
                                                           + MAX_NODE_BYTES + ")");
                    }
                    byte[] node = new byte[nodeLength];
                    in.get(node);
                    ReplyTo replyTo = new ReplyTo(new String(node, StandardCharsets.UTF_8), in.getInt());
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
                    yield new Chunk(version, attempt, replyTo, new SnapshotChunk(index, count, total, snapshotCrc, chunkCrc, data));
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
