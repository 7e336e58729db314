package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.worker.ZkOutage.Event;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ZkOutageTest {
    /** Same simple name as ZooKeeper's (shaded by Storm under another package). */
    static final class ConnectionLossException extends Exception {
        ConnectionLossException() {
            super("KeeperErrorCode = ConnectionLoss for /storms/t-1");
        }
    }

    static final class SessionExpiredException extends Exception {
    }

    @Test
    void aConnectionLossWrappedTheWayStormWrapsItIsAnOutage() {
        RuntimeException wrapped = new RuntimeException(new ConnectionLossException());
        assertTrue(ZkOutage.isConnectivity(wrapped));
        assertTrue(ZkOutage.isConnectivity(new IllegalStateException("x", new RuntimeException(new SessionExpiredException()))));
    }

    @Test
    void otherFailuresAreNotAnOutage() {
        assertFalse(ZkOutage.isConnectivity(new RuntimeException("no node")));
        assertFalse(ZkOutage.isConnectivity(new NullPointerException()));
        assertFalse(ZkOutage.isConnectivity(null));
    }

    @Test
    void anOutageIsReportedWhenItStartsAndWhenItEndsWithItsLength() {
        AtomicLong now = new AtomicLong(1_000);
        ZkOutage o = new ZkOutage(now::get);
        assertEquals(Event.NONE, o.succeeded(), "no outage yet");
        assertEquals(Event.STARTED, o.failed());
        now.addAndGet(10_000);
        assertEquals(Event.NONE, o.failed());
        now.addAndGet(2_500);
        assertEquals(Event.ENDED, o.succeeded());
        assertEquals(12_500, o.lastOutageMs());
        assertEquals(2, o.lastFailures());
        assertEquals(Event.NONE, o.succeeded());
        assertEquals(Event.STARTED, o.failed(), "a later outage is a new one");
    }
}
