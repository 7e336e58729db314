package io.nonstopstorm.workloads.state;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import org.apache.storm.state.DefaultStateSerializer;
import org.apache.storm.state.State;
import org.apache.storm.state.StateProvider;
import org.apache.storm.task.TopologyContext;

/**
 * A persistent {@code topology.state.provider} for the local cluster: each namespace's state in files under
 * {@value #DIR_KEY} ({@link FileKeyValueState}). It stands in for Redis, HBase or Cassandra, none of which
 * runs here, so that Storm's own way of moving a stateful bolt (its worker relaunched, the last committed
 * checkpoint restored, the tuples since then replayed) can be measured against a live move. Every worker
 * of a local cluster shares the machine's disk, as they would share a store; across machines it would not
 * do.
 */
public final class FileStateProvider implements StateProvider {
    /** Topology conf key: the directory holding every namespace's files (required). */
    public static final String DIR_KEY = "nonstop.file.state.dir";

    @Override
    public State newState(String namespace, Map<String, Object> topoConf, TopologyContext context) {
        Object dir = topoConf.get(DIR_KEY);
        if (!(dir instanceof String s) || s.isBlank()) {
            throw new IllegalArgumentException(DIR_KEY + " must name a directory for the file state provider, got "
                + dir);
        }
        return new FileKeyValueState<>(directoryOf(Paths.get(s), namespace),
            new DefaultStateSerializer<>(topoConf, context));
    }

    /** A namespace's directory: its name with anything but letters, digits, '-', '_' and '.' replaced. */
    static Path directoryOf(Path root, String namespace) {
        return root.resolve(namespace.replaceAll("[^A-Za-z0-9._-]", "_"));
    }
}
