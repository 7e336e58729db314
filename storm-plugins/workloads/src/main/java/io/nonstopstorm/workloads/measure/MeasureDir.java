package io.nonstopstorm.workloads.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/**
 * Where workload components write their measurements (series, count snapshots): the topology conf's
 * {@value #CONF_KEY} if set, else this worker's artifacts directory
 * ({@code <workers.artifacts>/<storm.id>/<worker.port>}, next to worker.log, which the supervisor
 * passes to every worker as system properties), else a temp directory.
 */
public final class MeasureDir {
    public static final String CONF_KEY = "nonstop.measure.dir";

    private MeasureDir() {
    }

    public static Path resolve(Map<String, Object> conf) {
        Object configured = conf.get(CONF_KEY);
        Path dir;
        if (configured != null && !configured.toString().isBlank()) {
            dir = Paths.get(configured.toString());
        } else {
            dir = fromWorkerProperties(System.getProperty("workers.artifacts"), System.getProperty("storm.id"),
                System.getProperty("worker.port"));
            if (dir == null) {
                dir = Paths.get(System.getProperty("java.io.tmpdir"), "nonstop-measure",
                    String.valueOf(conf.getOrDefault("storm.id", "local")));
            }
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create measurement dir " + dir, e);
        }
        return dir;
    }

    static Path fromWorkerProperties(String artifacts, String stormId, String port) {
        if (artifacts == null || stormId == null || port == null) {
            return null;
        }
        return Paths.get(artifacts, stormId, port);
    }

    /** A file name part that is safe on any file system. */
    public static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
