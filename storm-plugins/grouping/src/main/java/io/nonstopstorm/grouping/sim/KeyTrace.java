package io.nonstopstorm.grouping.sim;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;
import org.apache.commons.rng.simple.RandomSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A key stream materialised once so that every scheme sees exactly the same messages: message i has
 * key {@code names[ids[i]]}. Key ids are dense (0 .. distinctKeys-1), which keeps per-worker key sets
 * cheap.
 */
public record KeyTrace(String description, int[] ids, String[] names, byte[][] bytes) {

    public int messages() {
        return ids.length;
    }

    public int distinctKeys() {
        return names.length;
    }

    /** Share of messages carrying the most frequent key. */
    public double topKeyShare() {
        long[] counts = new long[names.length];
        for (int id : ids) {
            counts[id]++;
        }
        long top = Arrays.stream(counts).max().orElse(0);
        return ids.length == 0 ? 0 : (double) top / ids.length;
    }

    /**
     * {@code messages} keys drawn i.i.d. from Zipf over {@code keys} ranks with {@code exponent}
     * (p(r) proportional to r^-exponent), seeded; key of rank r is {@code "k" + r}.
     */
    public static KeyTrace zipf(int messages, int keys, double exponent, long seed) {
        if (messages <= 0 || keys <= 0) {
            throw new IllegalArgumentException("messages and keys must be positive, got " + messages + " and " + keys);
        }
        if (!(exponent > 0)) {
            throw new IllegalArgumentException("Zipf exponent must be > 0, got " + exponent);
        }
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        SharedStateDiscreteSampler sampler = RejectionInversionZipfSampler.of(rng, keys, exponent);
        Interner interner = new Interner();
        int[] ids = new int[messages];
        for (int i = 0; i < messages; i++) {
            ids[i] = interner.id("k" + sampler.sample());
        }
        return interner.trace(String.format("zipf(exponent=%s, keys=%d, seed=%d)", exponent, keys, seed), ids);
    }

    /** The keys of a text file, one per line (blank lines skipped), at most {@code limit} of them. */
    public static KeyTrace file(Path path, int limit) throws IOException {
        Interner interner = new Interner();
        int[] ids = new int[Math.min(limit, 1 << 16)];
        int n = 0;
        try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String line;
            while (n < limit && (line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                if (n == ids.length) {
                    ids = Arrays.copyOf(ids, (int) Math.min((long) ids.length * 2, Integer.MAX_VALUE - 8));
                }
                ids[n++] = interner.id(line.strip());
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException("key file " + path + " has no keys");
        }
        return interner.trace("file(" + path + ")", Arrays.copyOf(ids, n));
    }

    private static final class Interner {
        private final Map<String, Integer> idOf = new HashMap<>();
        private final List<String> names = new ArrayList<>();

        int id(String key) {
            Integer id = idOf.get(key);
            if (id == null) {
                id = names.size();
                idOf.put(key, id);
                names.add(key);
            }
            return id;
        }

        KeyTrace trace(String description, int[] ids) {
            String[] nameArray = names.toArray(String[]::new);
            byte[][] bytes = new byte[nameArray.length][];
            for (int i = 0; i < nameArray.length; i++) {
                bytes[i] = nameArray[i].getBytes(StandardCharsets.UTF_8);
            }
            return new KeyTrace(description, ids, nameArray, bytes);
        }
    }
}
