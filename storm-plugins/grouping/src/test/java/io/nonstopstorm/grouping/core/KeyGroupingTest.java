package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.sim.KeyTrace;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyGroupingTest {
    private static final KeyTrace TRACE = KeyTrace.zipf(50_000, 3_000, 1.1, 17);

    @Test
    void keyGroupingMemoryEqualsTheNumberOfDistinctKeys() {
        assertEquals(TRACE.distinctKeys(), memory(new KeyGrouping(8, 1)));
    }

    @Test
    void keyGroupingSendsAKeyAlwaysToTheSameWorkerAndSpreadsKeys() {
        KeyGrouping kg = new KeyGrouping(8, 1);
        Map<String, Integer> placed = new HashMap<>();
        int[] keysPerWorker = new int[8];
        for (String key : TRACE.names()) {
            int w = kg.route(key);
            placed.put(key, w);
            keysPerWorker[w]++;
        }
        for (int i = 0; i < 1_000; i++) {
            String key = TRACE.names()[TRACE.ids()[i]];
            assertEquals(placed.get(key), kg.route(key));
        }
        for (int count : keysPerWorker) {
            assertTrue(count > TRACE.distinctKeys() / 8 / 2, "keys are spread over all workers");
        }
    }

    @Test
    void partialKeyGroupingUsesAtMostTwoWorkersPerKey() {
        long memory = memory(new PartialKeyGrouping(8, 1));
        assertTrue(memory <= 2L * TRACE.distinctKeys());
        assertTrue(memory > TRACE.distinctKeys(), "heavy keys must be split");
    }

    @Test
    void shuffleAndPowerOfTwoChoicesSpreadKeysButBalanceAlmostPerfectly() {
        int workers = 8;
        for (KeyRouter router : new KeyRouter[]{new ShuffleGrouping(workers, 3),
                new PowerOfTwoChoices(workers, new SplittableRandom(5))}) {
            long[] load = new long[workers];
            for (int i = 0; i < TRACE.messages(); i++) {
                load[router.route(TRACE.bytes()[TRACE.ids()[i]])]++;
            }
            long max = java.util.Arrays.stream(load).max().orElseThrow();
            assertTrue(max - TRACE.messages() / (double) workers <= 2, router.getClass().getSimpleName());
        }
        assertTrue(memory(new ShuffleGrouping(workers, 0)) > 2L * TRACE.distinctKeys());
    }

    @Test
    void boundedConsistentHashingRespectsItsCapacityAndPrefersTheRing() {
        int workers = 6;
        double epsilon = 0.25;
        BoundedLoadConsistentHashing ch = new BoundedLoadConsistentHashing(workers, 10, epsilon, 3);
        long[] load = new long[workers];
        for (int i = 0; i < TRACE.messages(); i++) {
            int w = ch.route(TRACE.bytes()[TRACE.ids()[i]]);
            load[w]++;
            assertTrue(load[w] <= (1 + epsilon) * (i + 1) / workers + 1);
        }
        // an unloaded ring sends a key to the same worker on every fresh instance
        BoundedLoadConsistentHashing a = new BoundedLoadConsistentHashing(workers, 10, epsilon, 3);
        BoundedLoadConsistentHashing b = new BoundedLoadConsistentHashing(workers, 10, epsilon, 3);
        assertEquals(a.route("some-key"), b.route("some-key"));
    }

    private static long memory(KeyRouter router) {
        BitSet[] seen = new BitSet[router.workerCount()];
        for (int w = 0; w < seen.length; w++) {
            seen[w] = new BitSet();
        }
        for (int i = 0; i < TRACE.messages(); i++) {
            int key = TRACE.ids()[i];
            seen[router.route(TRACE.bytes()[key])].set(key);
        }
        long memory = 0;
        for (BitSet s : seen) {
            memory += s.cardinality();
        }
        return memory;
    }
}
