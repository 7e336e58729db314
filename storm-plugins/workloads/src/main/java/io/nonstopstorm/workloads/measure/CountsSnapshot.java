package io.nonstopstorm.workloads.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a counting bolt's current counts to {@code counts-<component>-<task>.json}, atomically
 * (temp file + rename) so a reader never sees half a file. The same format is written by the Python
 * counting bolts (topologies/common/snapshot.py) and read by pycontrol.workloads.outputs. Keeps track of
 * whether the counts changed since they were last written, so a bolt writes on its ticks only when needed.
 */
public final class CountsSnapshot {
    public static final String PREFIX = "counts-";
    private static final Logger LOG = LoggerFactory.getLogger(CountsSnapshot.class);

    private final Path path;
    private final Path tmp;
    private final String component;
    private final int task;
    private boolean changed;

    public CountsSnapshot(Path dir, String component, int task) {
        this.component = component;
        this.task = task;
        this.path = dir.resolve(PREFIX + MeasureDir.safe(component) + "-" + task + ".json");
        this.tmp = dir.resolve("." + path.getFileName() + ".tmp");
    }

    /** The snapshot file of the task a bolt runs as, in the topology's measure directory. */
    public static CountsSnapshot forTask(Map<String, Object> conf, org.apache.storm.task.TopologyContext context) {
        return new CountsSnapshot(MeasureDir.resolve(conf), context.getThisComponentId(), context.getThisTaskId());
    }

    public Path path() {
        return path;
    }

    /** The bolt's counts changed: the next {@link #writeIfChanged} writes them. */
    public void changed() {
        changed = true;
    }

    /**
     * Writes the counts if they changed since the last successful write. A failed write is logged, not
     * thrown (the bolt goes on counting), and tried again on the next call.
     */
    public void writeIfChanged(Map<String, ? extends Number> counts, long tuples) {
        if (!changed) {
            return;
        }
        try {
            write(counts, tuples);
            changed = false;
        } catch (IOException e) {
            LOG.warn("cannot write {}: {}", path, e.toString());
        }
    }

    public void write(Map<String, ? extends Number> counts, long tuples) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("component", component);
        doc.put("task", task);
        doc.put("tuples", tuples);
        doc.put("written_ms", System.currentTimeMillis());
        doc.put("counts", counts);
        Files.writeString(tmp, JSONValue.toJSONString(doc), StandardCharsets.UTF_8);
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
