package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.wire.ZkPaths;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.storm.shade.org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.storm.shade.org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls back with a topology's name whenever its controller plan ({@code /nonstop/plans/<name>}) is created
 * or rewritten, so Nimbus can run a round at once instead of at its next periodic one. Plans that exist
 * when the watch starts, or are written before its first read of them completes, do not call back (the
 * periodic round reads them anyway). A callback that throws is
 * logged; the watch goes on. ZooKeeper outages are Curator's to ride out: the cache re-reads on reconnect.
 */
public final class PlanWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PlanWatch.class);

    private final CuratorCache cache;
    private final CountDownLatch initialized;

    private PlanWatch(CuratorCache cache, CountDownLatch initialized) {
        this.cache = cache;
        this.initialized = initialized;
    }

    /** Starts watching (in the background) with this client, which stays the caller's to close. */
    public static PlanWatch start(CuratorFramework client, Consumer<String> onPlanWritten) {
        CuratorCache cache = CuratorCache.build(client, ZkPaths.PLANS);
        CountDownLatch initialized = new CountDownLatch(1);
        CuratorCacheListener listener = CuratorCacheListener.builder()
            .forCreatesAndChanges((before, now) -> notify(now, onPlanWritten))
            .forInitialized(initialized::countDown)
            .afterInitialized()
            .build();
        cache.listenable().addListener(listener);
        cache.start();
        return new PlanWatch(cache, initialized);
    }

    private static void notify(ChildData node, Consumer<String> onPlanWritten) {
        String name = topologyName(node.getPath());
        if (name == null) {
            return;
        }
        try {
            onPlanWritten.accept(name);
        } catch (RuntimeException e) {
            LOG.warn("nonstop: handling the new plan of {} failed", name, e);
        }
    }

    /** Whether the first read of the plans completed within the timeout; from then on writes call back. */
    boolean awaitInitialized(long timeout, TimeUnit unit) throws InterruptedException {
        return initialized.await(timeout, unit);
    }

    /** The topology whose plan lives at {@code path}, or null for the plans root or anything deeper. */
    static String topologyName(String path) {
        String prefix = ZkPaths.PLANS + "/";
        if (path == null || !path.startsWith(prefix)) {
            return null;
        }
        String name = path.substring(prefix.length());
        return name.isEmpty() || name.contains("/") ? null : name;
    }

    @Override
    public void close() {
        cache.close();
    }
}
