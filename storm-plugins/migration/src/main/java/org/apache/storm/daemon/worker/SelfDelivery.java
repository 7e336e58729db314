package org.apache.storm.daemon.worker;

import io.nonstopstorm.migration.worker.MigrationEventLog;
import io.nonstopstorm.migration.worker.ParkedTuples;
import io.nonstopstorm.migration.worker.SelfBound;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.tuple.AddressedTuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on the worker's transfer thread just before Storm's drainer sends a flush, under Storm's endpoint
 * lock and with the very routing the drainer sends by: messages for tasks that routing maps to this worker
 * itself (serialised by a local sender before an executor's arrival here reached its view) are taken out
 * ({@link SelfBound}) and delivered on the worker's local receive path, where parking and forwarding
 * apply, instead of being dropped by Storm. A task routed here but not hosted (its start failed, or it
 * left again) gets its tuples parked until it starts or the parking time runs out. Whatever cannot be
 * delivered, and whatever Storm's drainer will drop for lack of an address or a connection, is counted
 * with the worker's dropped tuples (the acker replays them).
 */
final class SelfDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(SelfDelivery.class);

    private final NodeInfo self;
    private final Function<TaskMessage, AddressedTuple> deserialize;
    private final IntPredicate hosted;
    private final Consumer<ArrayList<AddressedTuple>> localBatch;
    private final Lock deliveryLock;
    private final ParkedTuples<AddressedTuple> parked;
    private final IntConsumer dropped;
    private final MigrationEventLog events;
    private final LongSupplier clock;

    /**
     * @param self         this worker's address in Storm's routing
     * @param deserialize  a message back to its tuple (the transfer thread's own deserializer)
     * @param hosted       whether a task has a receive queue here
     * @param localBatch   the worker's local receive path (Storm's transferLocalBatch, with its advice)
     * @param deliveryLock the lock executor starts take before they drain the parked tuples
     * @param dropped      counts tuples given up on
     */
    SelfDelivery(NodeInfo self, Function<TaskMessage, AddressedTuple> deserialize, IntPredicate hosted,
                 Consumer<ArrayList<AddressedTuple>> localBatch, Lock deliveryLock, ParkedTuples<AddressedTuple> parked,
                 IntConsumer dropped, MigrationEventLog events, LongSupplier clock) {
        this.self = self;
        this.deserialize = deserialize;
        this.hosted = hosted;
        this.localBatch = localBatch;
        this.deliveryLock = deliveryLock;
        this.parked = parked;
        this.dropped = dropped;
        this.events = events;
        this.clock = clock;
    }

    /** Before the drainer sends {@code bundles} by {@code taskToNode} over {@code connections}. */
    void beforeSend(Map<Integer, ? extends List<TaskMessage>> bundles, Map<Integer, NodeInfo> taskToNode,
                    Map<NodeInfo, IConnection> connections) {
        SelfBound.Split<TaskMessage> split = SelfBound.take(bundles, taskToNode, self, connections::containsKey);
        if (split.unsendable() > 0) {
            dropped.accept(split.unsendable()); // Storm's drainer logs each destination it drops
        }
        if (!split.own().isEmpty()) {
            deliver(split.own());
        }
    }

    private void deliver(List<TaskMessage> own) {
        ArrayList<AddressedTuple> local = new ArrayList<>(own.size());
        TreeSet<Integer> tasks = new TreeSet<>();
        int lost = 0;
        for (TaskMessage m : own) {
            tasks.add(m.task());
            try {
                local.add(deserialize.apply(m));
            } catch (RuntimeException e) {
                lost++;
                LOG.warn("nonstop: a message for task {} routed to this worker could not be read back; dropped",
                         m.task(), e);
            }
        }
        int before = local.size();
        int refused = parkUnhosted(local);
        int waiting = before - local.size() - refused;
        lost += refused;
        if (!local.isEmpty()) {
            int n = local.size();
            try {
                localBatch.accept(local);
            } catch (RuntimeException e) {
                lost += n;
                LOG.warn("nonstop: delivering {} tuple(s) routed to this worker failed; dropped", n, e);
            }
        }
        if (lost > 0) {
            dropped.accept(lost);
        }
        LOG.info("nonstop: {} message(s) for task(s) {} were on the remote path while routing maps them to this "
                 + "worker; delivered here ({} parked, {} dropped)", own.size(), tasks, waiting, lost);
        events.append("self_routed", Map.of("port", self.get_port().iterator().next(), "tasks", tasks.toString(),
                                            "messages", own.size(), "parked", waiting, "dropped", lost));
    }

    /**
     * Takes the tuples for tasks not hosted here out of {@code batch} and parks them in order, under the
     * lock an executor's start drains the park under, so a task that starts meanwhile finds them.
     *
     * @return how many could not be parked (the park is full)
     */
    private int parkUnhosted(ArrayList<AddressedTuple> batch) {
        int refused = 0;
        deliveryLock.lock();
        try {
            long now = clock.getAsLong();
            for (AddressedTuple t : batch) {
                if (!hosted.test(t.dest) && !(t.dest >= 0 && parked.park(t.dest, t, now))) {
                    refused++;
                }
            }
            batch.removeIf(t -> !hosted.test(t.dest));
        } finally {
            deliveryLock.unlock();
        }
        return refused;
    }
}
