package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.state.EarlyTupleBuffer.Admission;
import io.nonstopstorm.migration.state.HandoffEvent.BarrierQueued;
import io.nonstopstorm.migration.state.HandoffEvent.ChunksAcked;
import io.nonstopstorm.migration.state.HandoffEvent.DestinationLost;
import io.nonstopstorm.migration.state.HandoffEvent.Installed;
import io.nonstopstorm.migration.state.HandoffEvent.Released;
import io.nonstopstorm.migration.state.HandoffEvent.SendingStarted;
import io.nonstopstorm.migration.state.HandoffEvent.SnapshotTaken;
import io.nonstopstorm.migration.state.SnapshotAssembler.Assembled;
import io.nonstopstorm.wire.ExecutorId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * One stateful executor's move played through the pure core, the runtime's part done by hand: the word
 * counts after the move are exact (every word counted once) and a failure leaves the old instance's
 * state as it was.
 */
class HandoffProtocolTest {
    private static final ExecutorId EX = new ExecutorId(7, 7);

    /** A word counter that opts in; its snapshot is its map. */
    static final class CountBolt implements HandoffState<Map<String, Long>> {
        final Map<String, Long> counts = new TreeMap<>();
        int executed;

        void execute(String word) {
            counts.merge(word, 1L, Long::sum);
            executed++;
        }

        @Override
        public Map<String, Long> snapshotState() {
            return counts;
        }

        @Override
        public void restoreState(Map<String, Long> snapshot) {
            counts.clear();
            counts.putAll(snapshot);
        }
    }

    /** Stands in for the topology's Kryo. */
    static byte[] encode(Map<String, Long> m) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(m.size());
            for (Map.Entry<String, Long> e : m.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Map<String, Long> decode(byte[] b) {
        Map<String, Long> m = new HashMap<>();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            for (int n = in.readInt(); n > 0; n--) {
                m.put(in.readUTF(), in.readLong());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return m;
    }

    private static List<String> words(int n) {
        Random r = new Random(42);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("w" + r.nextInt(400));
        }
        return out;
    }

    private static Map<String, Long> countsOf(List<String> words) {
        Map<String, Long> m = new TreeMap<>();
        words.forEach(w -> m.merge(w, 1L, Long::sum));
        return m;
    }

    private long now = 1_000;
    private final HandoffLimits limits = new HandoffLimits(1 << 20, 256, 1 << 16, 10_000, 2);
    private final Handoff handoff = new Handoff(limits, () -> now);

    private HandoffProgress accept(HandoffProgress p, HandoffEvent e) {
        HandoffStep step = handoff.step(p, e);
        assertTrue(step.applied(), () -> "refused: " + step.illegal());
        return step.after();
    }

    @Test
    void everyWordIsCountedOnceAcrossTheMove() {
        List<String> all = words(3000);
        CountBolt old = new CountBolt();
        CountBolt fresh = new CountBolt();
        EarlyTupleBuffer<String> gate = new EarlyTupleBuffer<>(limits.earlyBufferBytes(), String::length);
        List<String> heldAtSource = new ArrayList<>();

        HandoffProgress p = handoff.request(EX, 3);
        all.subList(0, 1000).forEach(old::execute);           // before the barrier: the old instance
        p = accept(p, new BarrierQueued());
        now += 5;
        byte[] snap = encode(old.snapshotState());
        p = accept(p, new SnapshotTaken(snap.length));
        all.subList(1000, 1500).forEach(heldAtSource::add);   // behind the barrier or late at the source
        all.subList(1500, 2500).forEach(w -> assertEquals(Admission.HELD, gate.offer(w)));  // switched senders

        SnapshotChunker chunker = new SnapshotChunker(snap, limits.chunkBytes());
        assertTrue(chunker.count() > 3, "a snapshot of several chunks: " + chunker.count());
        SnapshotAssembler assembler = new SnapshotAssembler(chunker.count(), chunker.totalBytes(),
                                                            chunker.snapshotCrc(), limits.maxBytes());
        p = accept(p, new SendingStarted());
        List<SnapshotChunk> wire = new ArrayList<>(chunker.all());
        wire.add(chunker.chunk(1));                           // a resend that crossed an acknowledgement
        Collections.shuffle(wire, new Random(1));
        for (SnapshotChunk c : wire) {
            assembler.offer(c);
            p = accept(p, new ChunksAcked(assembler.ackedBelow()));
        }
        byte[] received = assertInstanceOf(Assembled.class, assembler.finish()).snapshot();
        fresh.restoreState(decode(received));
        p = accept(p, new Installed(3));
        assertTrue(p.phase().targetMayProcess());
        gate.release().forEach(fresh::execute);              // the early tuples, in arrival order
        heldAtSource.forEach(fresh::execute);                 // forwarded after the state
        all.subList(2500, 3000).forEach(fresh::execute);      // after the install
        p = accept(p, new Released());

        assertEquals(HandoffPhase.RELEASED, p.phase());
        assertEquals(countsOf(all), fresh.counts);
        assertEquals(1000, old.executed);
        assertEquals(2000, fresh.executed);
    }

    @Test
    void theDestinationLostMidTransferLeavesTheOldStateAsItWasAndTheOldInstanceFinishesTheStream() {
        List<String> all = words(2000);
        CountBolt old = new CountBolt();
        CountBolt fresh = new CountBolt();
        List<String> heldAtSource = new ArrayList<>();

        HandoffProgress p = handoff.request(EX, 4);
        all.subList(0, 800).forEach(old::execute);
        p = accept(p, new BarrierQueued());
        byte[] snap = encode(old.snapshotState());
        Map<String, Long> atSnapshot = new TreeMap<>(old.counts);
        p = accept(accept(p, new SnapshotTaken(snap.length)), new SendingStarted());
        all.subList(800, 1200).forEach(heldAtSource::add);
        SnapshotChunker chunker = new SnapshotChunker(snap, limits.chunkBytes());
        SnapshotAssembler assembler = new SnapshotAssembler(chunker.count(), chunker.totalBytes(),
                                                            chunker.snapshotCrc(), limits.maxBytes());
        assembler.offer(chunker.chunk(0));
        p = accept(p, new ChunksAcked(assembler.ackedBelow()));

        p = accept(p, new DestinationLost("worker host2:6701 died"));
        assertEquals(HandoffPhase.ABORTED_KEEP_OLD, p.phase());
        assertTrue(p.oldInstanceOwnsState());
        assertEquals(atSnapshot, old.counts, "taking and sending the snapshot changed nothing in the old instance");
        heldAtSource.forEach(old::execute);                   // resumed: the held tuples, in order
        all.subList(1200, 2000).forEach(old::execute);
        assertEquals(countsOf(all), old.counts);
        assertEquals(0, fresh.executed, "the gated new instance processed nothing");
    }

    @Test
    void anOversizedSnapshotIsRefusedWithNothingSentAndTheOldStateKept() {
        Handoff tight = new Handoff(new HandoffLimits(64, 16, 64, 10_000, 0), () -> now);
        CountBolt old = new CountBolt();
        words(500).forEach(old::execute);
        Map<String, Long> before = new TreeMap<>(old.counts);
        HandoffProgress p = tight.step(tight.request(EX, 5), new BarrierQueued()).after();
        byte[] snap = encode(old.snapshotState());
        HandoffStep step = tight.step(p, new SnapshotTaken(snap.length));
        assertTrue(step.entered(HandoffPhase.REFUSED_TOO_LARGE));
        assertTrue(step.after().reason().contains("over nonstop.migration.state.max.bytes = 64"));
        assertFalse(tight.step(step.after(), new SendingStarted()).applied(), "no chunk may follow a refusal");
        assertEquals(before, old.counts);
    }
}
