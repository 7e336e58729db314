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
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.Serializer;

/**
 * A key-value state whose prepared and committed versions are files ({@link FileStateProvider}): the working
 * copy is in memory; {@link #prepareCommit} writes it as {@value #PREPARED}, {@link #commit(long)} makes that
 * file the committed one ({@value #COMMITTED}) by an atomic rename, {@link #rollback} goes back to the
 * committed contents. A new instance over the same directory (a relaunched worker) starts from the committed
 * contents and still knows a prepared transaction, so Storm's recovery can commit or roll it back.
 *
 * <p>A live move hands over only what the files lack ({@link StoreBackedState}): the working copy's changes
 * against the committed contents, which is what a new instance over the same directory starts from. The
 * directory is the store, so it must be one the old and the new worker both reach (on a local cluster, any).
 *
 * <p>File form: the transaction id (8 bytes, big-endian), then the map as the topology's state serializer
 * writes it. Every write goes to a temporary file renamed into place, so a crash leaves the old file whole.
 */
public final class FileKeyValueState<K, V> implements KeyValueState<K, V>, StoreBackedState {
    static final String COMMITTED = "committed.bin";
    static final String PREPARED = "prepared.bin";
    /** The txid of a commit without a transaction ({@link #commit()}). */
    static final long NO_TXID = -1;

    private final Path dir;
    private final Serializer<Object> serializer;
    private Map<K, V> current;
    private Map<K, V> committed;
    private Optional<Long> preparedTxid;

    @SuppressWarnings("unchecked")
    FileKeyValueState(Path dir, Serializer<?> serializer) {
        this.dir = dir;
        this.serializer = (Serializer<Object>) serializer;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the state directory " + dir, e);
        }
        this.committed = read(COMMITTED).map(Stored::entries).orElseGet(HashMap::new);
        this.current = new HashMap<>(committed);
        this.preparedTxid = read(PREPARED).map(Stored::txid);
    }

    private record Stored<K, V>(long txid, Map<K, V> entries) {
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
        write(PREPARED, txid, current);
        preparedTxid = Optional.of(txid);
    }

    @Override
    public void commit(long txid) {
        if (preparedTxid.isEmpty() || preparedTxid.get() != txid) {
            throw new IllegalStateException("cannot commit txid " + txid + ": the prepared one is "
                + preparedTxid.map(String::valueOf).orElse("none"));
        }
        Stored<K, V> prepared = read(PREPARED).orElseThrow(() -> new IllegalStateException(
            "txid " + txid + " was prepared but " + dir.resolve(PREPARED) + " is gone"));
        move(PREPARED, COMMITTED);
        committed = prepared.entries();
        preparedTxid = Optional.empty();
    }

    @Override
    public void commit() {
        write(COMMITTED, NO_TXID, current);
        committed = new HashMap<>(current);
    }

    @Override
    public void rollback() {
        try {
            Files.deleteIfExists(dir.resolve(PREPARED));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot drop the prepared state in " + dir, e);
        }
        preparedTxid = Optional.empty();
        current = new HashMap<>(committed);
    }

    private void write(String name, long txid, Map<K, V> entries) {
        Path tmp = dir.resolve(name + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp); DataOutputStream data = new DataOutputStream(out)) {
            data.writeLong(txid);
            data.write(serializer.serialize(new HashMap<>(entries)));
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

    @SuppressWarnings("unchecked")
    private Optional<Stored<K, V>> read(String name) {
        try (InputStream in = Files.newInputStream(dir.resolve(name)); DataInputStream data = new DataInputStream(in)) {
            long txid = data.readLong();
            Object map = serializer.deserialize(data.readAllBytes());
            if (!(map instanceof Map<?, ?> m)) {
                throw new IllegalStateException(dir.resolve(name) + " does not hold a map but " + map);
            }
            return Optional.of(new Stored<>(txid, new HashMap<>((Map<K, V>) m)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(name), e);
        }
    }
}
