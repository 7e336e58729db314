package org.apache.storm.daemon.worker;

import io.nonstopstorm.migration.worker.ParkedTuples;
import io.nonstopstorm.migration.worker.RetiredTasks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.storm.serialization.KryoTupleSerializer;
import org.apache.storm.tuple.AddressedTuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles tuples that reached this worker for a task it does not host. A task that just left is
 * followed: the tuple goes on to the task's new home through the worker's normal outbound path. Any
 * other task may be about to arrive here (a peer switched before this worker started the executor):
 * the tuple is parked until the executor starts or the parking time runs out (so is a state handoff's
 * snapshot chunk, always: its sender switched, so this worker is the task's new home). Whatever cannot be
 * forwarded or parked is dropped and counted; the acker replays it after the message timeout.
 */
final class TupleForwarder {
    private static final Logger LOG = LoggerFactory.getLogger(TupleForwarder.class);
    private static final long WARN_EVERY_MS = 5000;

    private final WorkerState ws;
    private final RetiredTasks retired;
    private final ParkedTuples<AddressedTuple> parked;
    private final ThreadLocal<KryoTupleSerializer> serializer;
    private final LongSupplier clock;
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile long lastWarnMs = 0;

    TupleForwarder(WorkerState ws, RetiredTasks retired, ParkedTuples<AddressedTuple> parked, LongSupplier clock) {
        this.ws = ws;
        this.clock = clock;
        this.retired = retired;
        this.parked = parked;
        this.serializer = ThreadLocal.withInitial(() -> new KryoTupleSerializer(ws.getTopologyConf(),
                                                                                  ws.getWorkerTopologyContext()));
    }

    /**
     * Takes the tuples whose destination is not local out of {@code batch} (Netty's receive path) and
     * forwards or drops them; the rest stay in {@code batch} for Storm's local delivery.
     */
    void divert(ArrayList<AddressedTuple> batch) {
        List<AddressedTuple> foreign = null;
        for (int i = 0; i < batch.size(); i++) {
            if (!ws.taskToExecutorQueue.containsKey(batch.get(i).dest)) {
                if (foreign == null) {
                    foreign = new ArrayList<>();
                }
                foreign.add(batch.get(i));
            }
        }
        if (foreign == null) {
            return;
        }
        batch.removeIf(t -> !ws.taskToExecutorQueue.containsKey(t.dest));
        List<AddressedTuple> follow = new ArrayList<>();
        long now = clock.getAsLong();
        for (AddressedTuple t : foreign) {
            // A snapshot chunk for a task that left here and is coming back waits for its executor: followed
            // by this worker's not yet switched routing, it would bounce between the two workers.
            if (t.dest >= 0 && retired.shouldForward(t.dest) && !StateHandoffs.isSnapshotChunk(t)) {
                follow.add(t);
            } else if (t.dest < 0 || !parked.park(t.dest, t, now)) {
                countDropped(1);
            }
        }
        parked.boundNotice().ifPresent(bound -> LOG.warn("nonstop: parked tuples reached {}: tuples for tasks "
            + "not started here yet are dropped (the acker replays them) until this move's executors start", bound));
        if (!follow.isEmpty()) {
            forwardAll(follow);
        }
    }

    /** @return how many were forwarded (the rest were dropped) */
    int forwardAll(List<AddressedTuple> tuples) {
        int sent = 0;
        for (AddressedTuple t : tuples) {
            boolean ok = false;
            if (t.dest >= 0 && retired.shouldForward(t.dest)) {
                try {
                    ok = ws.tryTransferRemote(t, null, serializer.get());
                } catch (RuntimeException e) {
                    LOG.debug("nonstop: forwarding a tuple for task {} failed", t.dest, e);
                }
            }
            if (ok) {
                sent++;
            } else {
                dropped.incrementAndGet();
            }
        }
        if (sent > 0) {
            forwarded.addAndGet(sent);
            ws.tryFlushRemotes();
        }
        if (sent < tuples.size()) {
            warn();
        }
        return sent;
    }

    /** Tuples given up on elsewhere (parked too long), counted with the rest. */
    void countDropped(int n) {
        if (n > 0) {
            dropped.addAndGet(n);
            warn();
        }
    }

    private void warn() {
        long now = clock.getAsLong();
        if (now - lastWarnMs > WARN_EVERY_MS) {
            lastWarnMs = now;
            LOG.warn("nonstop: dropped tuples for tasks not hosted here (total dropped {}, forwarded {}); "
                     + "the acker replays them", dropped.get(), forwarded.get());
        }
    }

    long forwarded() {
        return forwarded.get();
    }

    long dropped() {
        return dropped.get();
    }
}
