package io.nonstopstorm.grouping.hash;

import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Murmur3Test {

    @Test
    void matchesTheReferenceX64_128FirstHalfForEveryTailLengthAndSeed() {
        Random random = new Random(7);
        int[] seeds = {0, 1, 42, -1, Integer.MIN_VALUE, 0x2f6b1c3d};
        for (int length = 0; length <= 48; length++) {
            byte[] data = new byte[length];
            random.nextBytes(data);
            for (int seed : seeds) {
                long expected = MurmurHash3.hash128x64(data, 0, length, seed)[0];
                assertEquals(expected, Murmur3.hash64(data, seed), "length " + length + " seed " + seed);
            }
        }
    }

    @Test
    void hashesASliceLikeTheCopiedBytes() {
        byte[] data = "prefix-the-key-suffix".getBytes(StandardCharsets.UTF_8);
        byte[] key = "the-key".getBytes(StandardCharsets.UTF_8);
        assertEquals(Murmur3.hash64(key, 9), Murmur3.hash64(data, 7, key.length, 9));
    }

    @Test
    void saltedChoicesDifferFromThePrincipalAndStayInRange() {
        SaltedHasher hasher = new SaltedHasher(3);
        byte[] key = "wiki/Main_Page".getBytes(StandardCharsets.UTF_8);
        Set<Long> hashes = new HashSet<>();
        for (int salt = 0; salt < 50; salt++) {
            hashes.add(hasher.hash(key, salt));
            int choice = hasher.choice(key, salt, 7);
            assertTrue(choice >= 0 && choice < 7);
        }
        assertEquals(50, hashes.size(), "each salt must give a different hash");
        assertEquals(hasher.hash(key, 2), new SaltedHasher(3).hash(key, 2), "same seed, same sequence");
        assertNotEquals(hasher.hash(key, 0), new SaltedHasher(4).hash(key, 0));
        assertThrows(IllegalArgumentException.class, () -> hasher.hash(key, -1));
        assertThrows(IllegalArgumentException.class, () -> SaltedHasher.bucket(5, 0));
    }

    @Test
    void bucketTreatsHashesAsUnsigned() {
        assertEquals(Long.remainderUnsigned(-3L, 10), SaltedHasher.bucket(-3L, 10));
    }
}
