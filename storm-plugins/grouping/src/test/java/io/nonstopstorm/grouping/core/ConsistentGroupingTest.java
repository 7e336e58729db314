package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.signal.LoadSignal;
import io.nonstopstorm.grouping.signal.WorkerSignal;
import io.nonstopstorm.grouping.sim.KeyTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

import static io.nonstopstorm.grouping.signal.LoadSignal.DECREASE;
import static io.nonstopstorm.grouping.signal.LoadSignal.INCREASE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsistentGroupingTest {

    @Test
    void pairingConservesTheVirtualWorkersUnderAnySignalSequence() {
        int workers = 7;
        int perWorker = 4;
        ConsistentGrouping cg = new ConsistentGrouping(workers, perWorker, 0.2, 1);
        SplittableRandom random = new SplittableRandom(99);
        long moves = 0;
        for (int i = 0; i < 20_000; i++) {
            LoadSignal signal = random.nextBoolean() ? INCREASE : DECREASE;
            // workers 0..2 complain more often, so they regularly drain down to their last VW
            int worker = signal == DECREASE && random.nextInt(4) == 0 ? random.nextInt(3) : random.nextInt(workers);
            if (cg.onSignal(worker, signal).isPresent()) {
                moves++;
            }
            assertTableConsistent(cg.table(), workers * perWorker);
        }
        assertEquals(moves, cg.moves());
        assertTrue(moves > 1_000, "the sequence must actually move virtual workers, moved " + moves);
    }

    @Test
    void idleAndBusyWorkersArePairedFirstComeFirstServed() {
        ConsistentGrouping cg = new ConsistentGrouping(4, 3, 0.2, 1);
        assertEquals(Optional.empty(), cg.onSignal(0, INCREASE));
        assertEquals(Optional.empty(), cg.onSignal(1, INCREASE));
        VirtualWorkerMove first = cg.onSignal(2, DECREASE).orElseThrow();
        assertEquals(2, first.from());
        assertEquals(0, first.to(), "the first idle worker in line is served first");
        assertEquals(2 * 3 + 2, first.virtualWorker(), "a worker gives up the VW it received last");
        VirtualWorkerMove second = cg.onSignal(3, DECREASE).orElseThrow();
        assertEquals(1, second.to());
        assertEquals(Optional.empty(), cg.onSignal(3, DECREASE), "no idle worker left: 3 waits in the busy queue");
        VirtualWorkerMove third = cg.onSignal(0, INCREASE).orElseThrow();
        assertEquals(3, third.from());
        assertEquals(0, third.to());
        assertArrayEquals(new int[]{5, 4, 2, 1}, counts(cg));
    }

    @Test
    void aWorkerNeverGivesUpItsLastVirtualWorker() {
        ConsistentGrouping cg = new ConsistentGrouping(2, 2, 0.2, 1);
        assertTrue(cg.onSignal(1, INCREASE).isEmpty());
        assertTrue(cg.onSignal(0, DECREASE).isPresent());
        assertTrue(cg.onSignal(1, INCREASE).isEmpty(), "queued as idle again");
        assertTrue(cg.onSignal(0, DECREASE).isEmpty(), "worker 0 is down to one VW");
        assertArrayEquals(new int[]{1, 3}, counts(cg));
    }

    @Test
    void aNewerSignalSupersedesTheOppositeQueuedOne() {
        ConsistentGrouping cg = new ConsistentGrouping(3, 3, 0.2, 1);
        cg.onSignal(0, INCREASE);
        cg.onSignal(0, DECREASE); // 0 is busy now; it must not be paired with itself or stay idle-queued
        VirtualWorkerMove move = cg.onSignal(1, INCREASE).orElseThrow();
        assertEquals(0, move.from());
        assertEquals(1, move.to());
    }

    @Test
    void sourcesRouteIdenticallyGivenTheSameKeysAndSignals() {
        KeyTrace trace = KeyTrace.zipf(30_000, 1_000, 1.3, 5);
        ConsistentGrouping a = new ConsistentGrouping(6, 5, 0.2, 77);
        ConsistentGrouping b = new ConsistentGrouping(6, 5, 0.2, 77);
        List<WorkerSignal> signals = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(4);
        for (int i = 0; i < trace.messages(); i++) {
            if (i % 500 == 0) {
                WorkerSignal signal = new WorkerSignal(random.nextInt(6), random.nextBoolean() ? INCREASE : DECREASE);
                signals.add(signal);
                assertEquals(a.onSignal(signal), b.onSignal(signal));
            }
            byte[] key = trace.bytes()[trace.ids()[i]];
            assertEquals(a.route(key), b.route(key), "message " + i);
        }
        assertTrue(a.moves() > 0, "signals " + signals.size() + " must have moved something");
    }

    @Test
    void keysOfAMovedVirtualWorkerFollowItToItsNewOwner() {
        ConsistentGrouping cg = new ConsistentGrouping(2, 2, 10.0, 1); // huge eps: keys stay on principal VWs
        cg.onSignal(1, INCREASE);
        VirtualWorkerMove move = cg.onSignal(0, DECREASE).orElseThrow();
        Set<Integer> seenOwners = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String key = "key-" + i;
            int vw = cg.porc().principalBin(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            int worker = cg.route(key);
            assertEquals(cg.table().ownerOf(vw), worker);
            if (vw == move.virtualWorker()) {
                seenOwners.add(worker);
            }
        }
        assertEquals(Set.of(1), seenOwners);
        assertNotEquals(move.from(), cg.table().ownerOf(move.virtualWorker()));
    }

    @Test
    void rejectsSignalsFromUnknownWorkers() {
        ConsistentGrouping cg = new ConsistentGrouping(3, 2, 0.2, 1);
        assertThrows(IllegalArgumentException.class, () -> cg.onSignal(3, INCREASE));
    }

    private static int[] counts(ConsistentGrouping cg) {
        int[] counts = new int[cg.workerCount()];
        for (int w = 0; w < counts.length; w++) {
            counts[w] = cg.virtualWorkersOf(w);
        }
        return counts;
    }

    private static void assertTableConsistent(VirtualWorkerTable table, int expectedTotal) {
        int total = 0;
        Set<Integer> all = new HashSet<>();
        for (int w = 0; w < table.workers(); w++) {
            assertTrue(table.count(w) >= 1, "worker " + w + " lost its last VW");
            for (int vw : table.ownedBy(w)) {
                assertEquals(w, table.ownerOf(vw));
                assertTrue(all.add(vw), "VW " + vw + " owned twice");
            }
            total += table.count(w);
        }
        assertEquals(expectedTotal, total);
        assertEquals(expectedTotal, table.virtualWorkers());
    }
}
