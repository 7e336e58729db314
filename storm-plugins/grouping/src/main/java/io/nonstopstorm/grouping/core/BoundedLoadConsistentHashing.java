package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.hash.Murmur3;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * CH: consistent hashing with bounded loads (Mirrokni, Thorup, Zadimoghaddam). Every worker has
 * {@code copies} points on a ring of 64-bit hashes; a key goes to the first point clockwise from its
 * hash whose worker is below capacity {@code (1+eps) * average}, the average counting the current
 * message. Because that average includes the current message, the least-loaded worker is always
 * below capacity, so the walk ends within one turn of the ring.
 */
public final class BoundedLoadConsistentHashing implements KeyRouter {
    private final int workers;
    private final double epsilon;
    private final int seed;
    private final long[] pointHash;
    private final int[] pointWorker;
    private final long[] load;
    private long total;

    public BoundedLoadConsistentHashing(int workers, int copies, double epsilon, int seed) {
        this.workers = Checks.positive("workers", workers);
        Checks.positive("copies", copies);
        this.epsilon = Checks.nonNegative("epsilon", epsilon);
        this.seed = seed;
        int points = workers * copies;
        long[] hashes = new long[points];
        int[] owners = new int[points];
        for (int w = 0; w < workers; w++) {
            for (int c = 0; c < copies; c++) {
                byte[] name = ("worker-" + w + "#" + c).getBytes(StandardCharsets.UTF_8);
                hashes[w * copies + c] = Murmur3.hash64(name, seed);
                owners[w * copies + c] = w;
            }
        }
        Integer[] order = IntStream.range(0, points).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> hashes[i]).thenComparingInt(i -> owners[i]));
        this.pointHash = new long[points];
        this.pointWorker = new int[points];
        for (int i = 0; i < points; i++) {
            pointHash[i] = hashes[order[i]];
            pointWorker[i] = owners[order[i]];
        }
        this.load = new long[workers];
    }

    @Override
    public int workerCount() {
        return workers;
    }

    @Override
    public int route(byte[] key) {
        total++;
        double capacity = (1 + epsilon) * total / workers;
        int start = firstPointAtOrAfter(Murmur3.hash64(key, seed));
        for (int step = 0; step < pointHash.length; step++) {
            int w = pointWorker[(start + step) % pointHash.length];
            if (load[w] < capacity) {
                load[w]++;
                return w;
            }
        }
        throw new IllegalStateException("no worker below capacity; unreachable while the average counts this message");
    }

    private int firstPointAtOrAfter(long hash) {
        int found = Arrays.binarySearch(pointHash, hash);
        if (found >= 0) {
            while (found > 0 && pointHash[found - 1] == hash) {
                found--;
            }
            return found;
        }
        int insertion = -found - 1;
        return insertion == pointHash.length ? 0 : insertion;
    }
}
