package org.apache.storm.daemon.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.worker.MigrationEventLog;
import io.nonstopstorm.migration.worker.ParkedTuples;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.grouping.Load;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.BackPressureStatus;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.utils.TransferDrainer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routing switch of a move into this worker, against Storm's own TransferDrainer: a local sender
 * queued a message for task 7 while task 7 lived on worker A; the move starts task 7 here and the
 * connection refresh maps it to this worker; then the transfer thread flushes.
 */
class SelfDeliveryTest {
    private static final NodeInfo SELF = node("node-b", 6701);
    private static final NodeInfo A = node("node-a", 6700);

    private final TransferDrainer drainer = new TransferDrainer();
    private final Recording toA = new Recording();
    private final Map<NodeInfo, IConnection> connections = Map.of(A, toA);
    private final List<Integer> delivered = new ArrayList<>();
    private final Set<Integer> hosted = new HashSet<>();
    private final AtomicInteger dropped = new AtomicInteger();
    private final ParkedTuples<AddressedTuple> parked = new ParkedTuples<>(15_000, 2, 1 << 20, t -> 1);
    private Path eventsFile;
    private SelfDelivery delivery;

    @BeforeEach
    void setUp(@TempDir Path dir) {
        eventsFile = dir.resolve("worker-6701.events.jsonl");
        delivery = new SelfDelivery(SELF, m -> {
            if (m.message().length == 0) {
                throw new IllegalArgumentException("unreadable");
            }
            return new AddressedTuple(m.task(), null);
        }, hosted::contains, batch -> batch.forEach(t -> delivered.add(t.dest)),
                                    new ReentrantReadWriteLock().readLock(), parked, dropped::addAndGet,
                                    new MigrationEventLog(eventsFile, () -> 1000L, 1 << 20), () -> 1000L);
    }

    private static NodeInfo node(String id, long port) {
        return new NodeInfo(id, new HashSet<>(Set.of(port)));
    }

    /** The flush as WorkerTransfer runs it, with the advice on TransferDrainer.send when {@code woven}. */
    private void flush(Map<Integer, NodeInfo> taskToNode, boolean woven) {
        if (woven) {
            delivery.beforeSend(bundles(drainer), taskToNode, connections);
        }
        drainer.send(taskToNode, connections);
        drainer.clear();
    }

    @SuppressWarnings("unchecked")
    private static Map<Integer, ArrayList<TaskMessage>> bundles(TransferDrainer d) {
        try {
            // What the woven advice reads through @Advice.FieldValue("bundles").
            Field f = TransferDrainer.class.getDeclaredField("bundles");
            f.setAccessible(true);
            return (Map<Integer, ArrayList<TaskMessage>>) f.get(d);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private void queuedBeforeTheSwitch() {
        drainer.add(new TaskMessage(7, new byte[] {1}));
        drainer.add(new TaskMessage(9, new byte[] {2}));
    }

    private static Map<Integer, NodeInfo> afterTheSwitch() {
        return Map.of(7, SELF, 9, A);
    }

    @Test
    void stockDrainerLosesAMessageRoutedToItsOwnWorker() {
        queuedBeforeTheSwitch();
        hosted.add(7);
        flush(afterTheSwitch(), false);
        assertEquals(List.of(9), toA.sent, "only task 9's message left the worker");
        assertEquals(List.of(), delivered, "task 7's message is gone, and nothing counted it");
        assertEquals(0, dropped.get());
    }

    @Test
    void aMessageRoutedToItsOwnWorkerIsDeliveredHereAndTheRestSentAsBefore() throws IOException {
        queuedBeforeTheSwitch();
        hosted.add(7);
        flush(afterTheSwitch(), true);
        assertEquals(List.of(7), delivered);
        assertEquals(List.of(9), toA.sent);
        assertEquals(0, dropped.get());
        String events = Files.readString(eventsFile);
        assertTrue(events.contains("\"event\":\"self_routed\"") && events.contains("\"messages\":1"), events);

        flush(afterTheSwitch(), true);
        assertEquals(List.of(7), delivered, "delivered once");
    }

    @Test
    void beforeTheSwitchNothingChanges() {
        queuedBeforeTheSwitch();
        flush(Map.of(7, A, 9, A), true);
        assertEquals(List.of(7, 9), toA.sent.stream().sorted().toList());
        assertEquals(List.of(), delivered);
        assertTrue(Files.notExists(eventsFile), "no event for an ordinary flush");
    }

    @Test
    void aTaskRoutedHereButNotHostedWaitsParkedForItsExecutor() {
        queuedBeforeTheSwitch();
        flush(afterTheSwitch(), true);
        assertEquals(List.of(), delivered);
        assertEquals(1, parked.size());
        assertEquals(7, parked.drain(List.of(7)).get(0).dest, "an executor start of task 7 takes it");
        assertEquals(0, dropped.get());
    }

    @Test
    void whatCannotBeDeliveredOrSentIsCounted() {
        drainer.add(new TaskMessage(7, new byte[0]));          // cannot be read back
        for (int i = 0; i < 3; i++) {
            drainer.add(new TaskMessage(8, new byte[] {1}));   // not hosted, the park takes 2
        }
        drainer.add(new TaskMessage(11, new byte[] {1}));      // no address: Storm's drainer drops it
        drainer.add(new TaskMessage(12, new byte[] {1}));      // no connection to its node: dropped too
        Map<Integer, NodeInfo> routing = new HashMap<>(Map.of(7, SELF, 8, SELF, 12, node("node-c", 6702)));
        hosted.add(7);
        flush(routing, true);
        assertEquals(List.of(), delivered);
        assertEquals(2, parked.size());
        assertEquals(1 + 1 + 2, dropped.get());
    }

    /** A connection that records the tasks it was given. */
    private static final class Recording implements IConnection {
        final List<Integer> sent = new ArrayList<>();

        @Override
        public void send(Iterator<TaskMessage> msgs) {
            msgs.forEachRemaining(m -> sent.add(m.task()));
        }

        @Override
        public void sendLoadMetrics(Map<Integer, Double> taskToLoad) {
        }

        @Override
        public void sendBackPressureStatus(BackPressureStatus bpStatus) {
        }

        @Override
        public Map<Integer, Load> getLoad(Collection<Integer> tasks) {
            return Map.of();
        }

        @Override
        public int getPort() {
            return 6700;
        }

        @Override
        public void close() {
        }
    }
}
