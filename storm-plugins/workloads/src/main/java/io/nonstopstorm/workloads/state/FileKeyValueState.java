package io.nonstopstorm.workloads.state;

import io.nonstopstorm.migration.state.StoreBackedState;
import io.nonstopstorm.migration.state.UnstoredChanges;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.Serializer;

/**
 * A key-value state whose prepared and committed versions are files ({@link FileStateProvider}): the working
 * copy is in memory; {@link #prepareCommit} writes what changed since the last commit as {@value #PREPARED},
 * {@link #commit(long)} turns that file into the next committed change file ({@code change-<n>.bin}) by an
 * atomic rename, {@link #rollback} goes back to the committed contents. The committed contents are the last
 * full copy ({@value #COMMITTED}, written every {@value #CHANGES_PER_FULL_COPY} commits) plus the change files
 * after it. So a checkpoint costs what changed, not the whole state, as with Storm's Redis state (which writes
 * its pending changes), and a state holding tens of MB of values that never change does not rewrite them every
 * checkpoint. A new instance over the same directory (a relaunched worker) starts from the committed contents
 * and still knows a prepared transaction, so Storm's recovery can commit or roll it back. A {@code COMMIT} of the
 * transaction last committed is taken again without a change: Storm's checkpoint spout sends it again whenever
 * the first one's tuple tree failed (a worker relaunched meanwhile, a timeout), to bolts that had committed it.
 *
 * <p>A live move hands over only what the files lack ({@link StoreBackedState}): the working copy's changes
 * against the committed contents, which is what a new instance over the same directory starts from. The
 * directory is the store, so it must be one the old and the new worker both reach (on a local cluster, any).
 *
 * <p>File forms: a full copy is the number of the last change it holds and the last transaction id committed
 * (8 bytes each, big-endian; {@value #NO_TXID} for none), then the map as the topology's state serializer writes it; a change file (and the prepared one) is the transaction id, then
 * a map of the puts and a list of the deletes. Every write goes to a temporary file renamed into place, so a
 * crash leaves the old file whole; a full copy is renamed into place before the change files it covers are
 * removed.
 */
public final class FileKeyValueState<K, V> implements KeyValueState<K, V>, StoreBackedState {
    static final String COMMITTED = "committed.bin";
    static final String PREPARED = "prepared.bin";
    static final int CHANGES_PER_FULL_COPY = 32;
    /** The txid of a commit without a transaction ({@link #commit()}). */
    static final long NO_TXID = -1;
    private static final Pattern CHANGE = Pattern.compile("change-(\\d{12})\\.bin");

    private final Path dir;
    private final Serializer<Object> serializer;
    private Map<K, V> current;
    private final Map<K, V> committed;
    /** Number of the last committed change file (0: none since the directory was made). */
    private long lastChange;
    private Optional<Long> preparedTxid;
    /** The last transaction committed ({@value #NO_TXID}: none yet), as the files say. */
    private long committedTxid;
    /** What this instance prepared and has not committed yet. */
    private Optional<Change> prepared = Optional.empty();

    @SuppressWarnings("unchecked")
    FileKeyValueState(Path dir, Serializer<?> serializer) {
        this.dir = dir;
        this.serializer = (Serializer<Object>) serializer;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the state directory " + dir, e);
        }
        Optional<FullCopy<K, V>> full = readFull();
        this.committed = full.map(FullCopy::entries).orElseGet(HashMap::new);
        this.lastChange = full.map(FullCopy::lastChange).orElse(0L);
        this.committedTxid = full.map(FullCopy::committedTxid).orElse(NO_TXID);
        for (long n : changeNumbers()) {
            if (n > lastChange) {
                Change change = readChange(changeFile(n)).orElseThrow();
                change.applyTo(committed);
                lastChange = n;
                committedTxid = change.txid() == NO_TXID ? committedTxid : change.txid();
            }
        }
        this.current = new HashMap<>(committed);
        this.preparedTxid = readChange(PREPARED).map(Change::txid);
    }

    private record FullCopy<K, V>(long lastChange, long committedTxid, Map<K, V> entries) {
    }

    /** One transaction's changes: deletes first, then puts (UnstoredChanges never has a key in both). */
    private record Change(long txid, Map<Object, Object> puts, List<Object> deletes) {
        @SuppressWarnings("unchecked")
        <K, V> void applyTo(Map<K, V> entries) {
            deletes.forEach(entries::remove);
            puts.forEach((k, v) -> entries.put((K) k, (V) v));
        }
    }

    @Override
    public void put(K key, V value) {
        current.put(key, value);
    }

    @Override
    public V get(K key) {
        return current.get(key);
    }

    @Override
    public V get(K key, V defaultValue) {
        return current.getOrDefault(key, defaultValue);
    }

    @Override
    public V delete(K key) {
        return current.remove(key);
    }

    @Override
    public Iterator<Map.Entry<K, V>> iterator() {
        return current.entrySet().iterator();
    }

    /** The working copy against the committed contents, which a new instance reads from the files. */
    @Override
    public UnstoredChanges unstoredChanges() {
        return UnstoredChanges.between(committed, current);
    }

    @Override
    public void prepareCommit(long txid) {
        if (preparedTxid.isPresent() && txid > preparedTxid.get()) {
            throw new IllegalStateException("cannot prepare txid " + txid + " while txid " + preparedTxid.get()
                + " is prepared and not committed");
        }
        UnstoredChanges changes = unstoredChanges();
        writeChange(PREPARED, txid, changes);
        preparedTxid = Optional.of(txid);
        // Committed from memory, not read back: a value read back is a copy, unequal to the working copy's
        // (a byte[] is equal only to itself), and the next checkpoint would write it again.
        prepared = Optional.of(new Change(txid, changes.puts(), changes.deletes()));
    }

    @Override
    public void commit(long txid) {
        if (preparedTxid.isEmpty() && txid == committedTxid && txid != NO_TXID) {
            return;   // a COMMIT sent again after its tuple tree failed: this one is in the files already
        }
        if (preparedTxid.isEmpty() || preparedTxid.get() != txid) {
            throw new IllegalStateException("cannot commit txid " + txid + ": the prepared one is "
                + preparedTxid.map(String::valueOf).orElse("none"));
        }
        // A relaunched or new instance commits what an earlier one prepared: only the file knows it.
        Change change = prepared.or(() -> readChange(PREPARED)).orElseThrow(() -> new IllegalStateException(
            "txid " + txid + " was prepared but " + dir.resolve(PREPARED) + " is gone"));
        move(PREPARED, changeFile(lastChange + 1));
        committedTxid = txid;   // before committed(): a full copy written there records it
        committed(change);
        preparedTxid = Optional.empty();
        prepared = Optional.empty();
    }

    @Override
    public void commit() {
        UnstoredChanges changes = unstoredChanges();
        writeChange(changeFile(lastChange + 1), NO_TXID, changes);
        committed(new Change(NO_TXID, changes.puts(), changes.deletes()));
    }

    @Override
    public void rollback() {
        try {
            Files.deleteIfExists(dir.resolve(PREPARED));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot drop the prepared state in " + dir, e);
        }
        preparedTxid = Optional.empty();
        prepared = Optional.empty();
        current = new HashMap<>(committed);
    }

    /** The change file numbered lastChange + 1 is in place: take it in, and now and then write a full copy. */
    private void committed(Change change) {
        change.applyTo(committed);
        lastChange++;
        if (lastChange % CHANGES_PER_FULL_COPY == 0) {
            writeFull();
        }
    }

    private void writeFull() {
        write(COMMITTED, data -> {
            data.writeLong(lastChange);
            data.writeLong(committedTxid);
            data.write(serializer.serialize(new HashMap<>(committed)));
        });
        for (long n : changeNumbers()) {
            if (n <= lastChange) {
                try {
                    Files.deleteIfExists(dir.resolve(changeFile(n)));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot remove a change file the full copy holds in " + dir, e);
                }
            }
        }
    }

    private void writeChange(String name, long txid, UnstoredChanges changes) {
        write(name, data -> {
            data.writeLong(txid);
            byte[] puts = serializer.serialize(new HashMap<>(changes.puts()));
            data.writeInt(puts.length);
            data.write(puts);
            data.write(serializer.serialize(new ArrayList<>(changes.deletes())));
        });
    }

    private interface Body {
        void writeTo(DataOutputStream data) throws IOException;
    }

    private void write(String name, Body body) {
        Path tmp = dir.resolve(name + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp); DataOutputStream data = new DataOutputStream(out)) {
            body.writeTo(data);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + tmp, e);
        }
        move(name + ".tmp", name);
    }

    private void move(String from, String to) {
        try {
            Files.move(dir.resolve(from), dir.resolve(to), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + from + " to " + to + " in " + dir, e);
        }
    }

    private static String changeFile(long n) {
        return String.format("change-%012d.bin", n);
    }

    /** The committed change files' numbers, ascending. */
    private List<Long> changeNumbers() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> CHANGE.matcher(f.getFileName().toString()))
                .filter(Matcher::matches).map(m -> Long.parseLong(m.group(1))).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    @SuppressWarnings("unchecked")
    private Optional<FullCopy<K, V>> readFull() {
        return read(COMMITTED, data -> {
            long last = data.readLong();
            long txid = data.readLong();
            Object map = serializer.deserialize(data.readAllBytes());
            if (!(map instanceof Map<?, ?> m)) {
                throw new IllegalStateException(dir.resolve(COMMITTED) + " does not hold a map but " + map);
            }
            return new FullCopy<>(last, txid, new HashMap<>((Map<K, V>) m));
        });
    }

    @SuppressWarnings("unchecked")
    private Optional<Change> readChange(String name) {
        return read(name, data -> {
            long txid = data.readLong();
            Object puts = serializer.deserialize(data.readNBytes(data.readInt()));
            Object deletes = serializer.deserialize(data.readAllBytes());
            if (!(puts instanceof Map<?, ?> p) || !(deletes instanceof List<?> d)) {
                throw new IllegalStateException(dir.resolve(name) + " does not hold a change but " + puts);
            }
            return new Change(txid, (Map<Object, Object>) p, (List<Object>) d);
        });
    }

    private interface Reader<T> {
        T readFrom(DataInputStream data) throws IOException;
    }

    private <T> Optional<T> read(String name, Reader<T> reader) {
        try (InputStream in = Files.newInputStream(dir.resolve(name)); DataInputStream data = new DataInputStream(in)) {
            return Optional.of(reader.readFrom(data));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(name), e);
        }
    }
}
