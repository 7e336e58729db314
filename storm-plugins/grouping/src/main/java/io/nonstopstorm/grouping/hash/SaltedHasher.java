package io.nonstopstorm.grouping.hash;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One seeded hash function producing, per key, a deterministic sequence of choices among {@code n}
 * slots: choice 0 hashes the key itself, choice {@code s > 0} hashes the key with {@code ":" + s}
 * appended (the salting of the Consistent Grouping paper). Every source using the same seed sees
 * the same sequence for the same key, which is what lets sources route consistently without talking.
 */
public final class SaltedHasher implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int seed;

    public SaltedHasher(int seed) {
        this.seed = seed;
    }

    public int seed() {
        return seed;
    }

    /** 64-bit hash of the key salted with {@code salt} (0 means unsalted). */
    public long hash(byte[] key, int salt) {
        if (salt < 0) {
            throw new IllegalArgumentException("salt must be >= 0, got " + salt);
        }
        if (salt == 0) {
            return Murmur3.hash64(key, seed);
        }
        byte[] suffix = (":" + salt).getBytes(StandardCharsets.US_ASCII);
        byte[] salted = Arrays.copyOf(key, key.length + suffix.length);
        System.arraycopy(suffix, 0, salted, key.length, suffix.length);
        return Murmur3.hash64(salted, seed);
    }

    /** The {@code salt}-th choice for the key among {@code n} slots, in [0, n). */
    public int choice(byte[] key, int salt, int n) {
        return bucket(hash(key, salt), n);
    }

    /** Maps a 64-bit hash onto [0, n) treating the hash as unsigned. */
    public static int bucket(long hash, int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("number of slots must be positive, got " + n);
        }
        return (int) Long.remainderUnsigned(hash, n);
    }
}
