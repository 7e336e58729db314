package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.plan.PlanStore;
import io.nonstopstorm.migration.plan.PlanStoreTest;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanWatcherTest {
    @TempDir
    Path dir;

    @Test
    void pushReportsEachNewVersionLongBeforeThePollPeriod() throws Exception {
        PlanStore store = new PlanStore(dir.resolve("plan.json"), System::currentTimeMillis);
        LinkedBlockingQueue<NodePlan> seen = new LinkedBlockingQueue<>();
        // A 60 s poll period: anything seen within a few seconds came from the file watch.
        try (PlanWatcher w = new PlanWatcher(store, 60_000, true, seen::add).start()) {
            Thread.sleep(300); // let the watch register
            store.publish(PlanStoreTest.content(6701, "t", 1));
            NodePlan first = seen.poll(5, TimeUnit.SECONDS);
            assertNotNull(first, "push did not fire");
            assertEquals(1, first.version());
            store.publish(PlanStoreTest.content(6701, "t", 2));
            NodePlan second = seen.poll(5, TimeUnit.SECONDS);
            assertNotNull(second);
            assertEquals(2, second.version());
            store.publish(PlanStoreTest.content(6701, "t", 2)); // same content: no new version
            assertEquals(null, seen.poll(500, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void pollAloneFindsNewVersionsWithinItsPeriod() throws Exception {
        PlanStore store = new PlanStore(dir.resolve("plan.json"), System::currentTimeMillis);
        LinkedBlockingQueue<NodePlan> seen = new LinkedBlockingQueue<>();
        try (PlanWatcher w = new PlanWatcher(store, 200, false, seen::add).start()) {
            store.publish(PlanStoreTest.content(6701, "t", 1));
            long t0 = System.nanoTime();
            NodePlan p = seen.poll(5, TimeUnit.SECONDS);
            assertNotNull(p);
            assertTrue((System.nanoTime() - t0) / 1e6 < 2000);
        }
    }
}
