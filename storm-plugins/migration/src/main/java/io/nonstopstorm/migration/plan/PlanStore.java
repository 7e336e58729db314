package io.nonstopstorm.migration.plan;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The per-node plan store: one small JSON file, replaced atomically (write a temp file, fsync, rename,
 * fsync the directory), with a version that grows by one for every change of content. Readers never
 * lock: a rename is atomic, so they see either the old or the new version, never a mix. Writers (the
 * supervisor) serialise on a lock file, so even two writers cannot lose a version.
 */
public final class PlanStore {
    private final Path file;
    private final Path lockFile;
    private final LongSupplier clock;
    private static final Map<Path, Object> WRITERS = new ConcurrentHashMap<>();

    public PlanStore(Path file, LongSupplier clockMs) {
        this.file = file.toAbsolutePath();
        this.lockFile = this.file.resolveSibling(this.file.getFileName() + ".lock");
        this.clock = clockMs;
    }

    public Path file() {
        return file;
    }

    /** The latest version, or empty if nothing was ever written. */
    public Optional<NodePlan> read() throws IOException, PlanFormatException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(PlanCodec.decode(text));
        } catch (PlanFormatException e) {
            throw new PlanFormatException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stores {@code content} as the next version unless the stored plan already has the same content.
     * A corrupt stored plan is replaced (its version is lost, so the new version restarts above the
     * highest version this process has seen, or at 1).
     *
     * @return the plan now in the store (the existing one when nothing changed)
     */
    public NodePlan publish(NodePlan content) throws IOException {
        // File locks are per process (a second lock from this JVM would fail), so writers in this JVM
        // queue on a shared monitor first and the file lock keeps out other processes.
        synchronized (WRITERS.computeIfAbsent(file, f -> new Object())) {
            return publishLocked(content);
        }
    }

    private NodePlan publishLocked(NodePlan content) throws IOException {
        Files.createDirectories(file.getParent());
        try (FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                                                        StandardOpenOption.WRITE);
             FileLock ignored = lockChannel.lock()) {
            NodePlan current;
            try {
                current = read().orElse(NodePlan.empty());
            } catch (PlanFormatException e) {
                current = NodePlan.empty();
            }
            if (current.version() > 0 && current.sameContentAs(content)) {
                return current;
            }
            NodePlan next = content.asVersion(Math.max(current.version(), highWaterMark(lockChannel)) + 1,
                                              clock.getAsLong());
            // The mark first: a crash in between skips a version number, it never reuses one.
            writeHighWaterMark(lockChannel, next.version());
            writeAtomically(PlanCodec.encode(next));
            return next;
        }
    }

    /** The highest version given out so far, from the lock file (0 when it is new or unreadable). */
    private static long highWaterMark(FileChannel lockChannel) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(32);
        lockChannel.read(buf, 0);
        String text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
        try {
            return text.isEmpty() ? 0 : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void writeHighWaterMark(FileChannel lockChannel, long version) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap((version + "\n").getBytes(StandardCharsets.US_ASCII));
        lockChannel.truncate(0);
        while (buf.hasRemaining()) {
            lockChannel.write(buf, buf.position());
        }
        lockChannel.force(false);
    }

    private void writeAtomically(String json) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                                               StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8));
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(tmp);
            throw new IOException("the file system of " + file.getParent() + " cannot rename atomically", e);
        }
        fsyncDirectory(file.getParent());
    }

    /** Makes the rename itself durable; not every platform lets a directory be opened, so best effort. */
    private static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // The data file itself is synced; only the rename's durability across a power cut is at stake.
        }
    }
}
