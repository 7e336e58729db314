package io.nonstopstorm.migration.worker;

import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.plan.PlanFormatException;
import io.nonstopstorm.migration.plan.PlanStore;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's link to its node's plan store: it reads the store every {@code pollMs} (T_W) and, with
 * push on, also wakes up at once when the plan file is replaced (a directory watch). Each new version
 * is handed to {@code onNewVersion} exactly once, on the watcher's own daemon thread.
 */
public final class PlanWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PlanWatcher.class);

    private final PlanStore store;
    private final long pollMs;
    private final boolean push;
    private final Consumer<NodePlan> onNewVersion;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile WatchService watch;
    private long lastVersion = -1;
    private String lastError = null;

    public PlanWatcher(PlanStore store, long pollMs, boolean push, Consumer<NodePlan> onNewVersion) {
        this.store = store;
        this.pollMs = pollMs;
        this.push = push;
        this.onNewVersion = onNewVersion;
        this.thread = new Thread(this::loop, "nonstop-plan-watcher");
        this.thread.setDaemon(true);
    }

    public PlanWatcher start() {
        thread.start();
        return this;
    }

    private void loop() {
        Path dir = store.file().getParent();
        if (push) {
            try {
                Files.createDirectories(dir);
                watch = FileSystems.getDefault().newWatchService();
                // A rename into place shows up as CREATE; MODIFY covers editors that write in place.
                dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            } catch (IOException e) {
                LOG.warn("nonstop: cannot watch {} ({}); polling every {} ms only", dir, e.toString(), pollMs);
                watch = null;
            }
        }
        while (running) {
            check();
            try {
                if (watch != null) {
                    WatchKey key = watch.poll(pollMs, TimeUnit.MILLISECONDS);
                    if (key != null) {
                        key.pollEvents();
                        key.reset();
                    }
                } else {
                    Thread.sleep(pollMs);
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            }
        }
    }

    /** Reads the store and reports a version not seen before. */
    void check() {
        Optional<NodePlan> plan;
        try {
            plan = store.read();
            lastError = null;
        } catch (IOException | PlanFormatException e) {
            if (!e.toString().equals(lastError)) {
                LOG.warn("nonstop: cannot read plan store: {}", e.toString());
                lastError = e.toString();
            }
            return;
        }
        if (plan.isPresent() && plan.get().version() != lastVersion) {
            lastVersion = plan.get().version();
            try {
                onNewVersion.accept(plan.get());
            } catch (RuntimeException e) {
                LOG.error("nonstop: handling plan version {} failed", lastVersion, e);
            }
        }
    }

    @Override
    public void close() {
        running = false;
        WatchService w = watch;
        if (w != null) {
            try {
                w.close();
            } catch (IOException ignored) {
                // closing only releases the inotify handle
            }
        }
        thread.interrupt();
    }
}
