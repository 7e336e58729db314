package io.nonstopstorm.grouping.hash;

/**
 * MurmurHash3, x64 128-bit variant (Austin Appleby's public-domain algorithm), written for this
 * project so the groupings need no library on Storm's worker classpath.
 *
 * <p>Only the first 64-bit half is exposed: routing reduces it modulo a small number of workers, and
 * 64 bits keep collisions between distinct keys negligible (the paper used a wide Murmur for key
 * grouping for the same reason). The seed is treated as an unsigned 32-bit value, as in the reference
 * implementation.
 */
public final class Murmur3 {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3() {
    }

    /** First 64 bits of MurmurHash3_x64_128 of {@code data} with {@code seed}. */
    public static long hash64(byte[] data, int seed) {
        return hash64(data, 0, data.length, seed);
    }

    /** First 64 bits of MurmurHash3_x64_128 of {@code data[offset, offset+length)}. */
    public static long hash64(byte[] data, int offset, int length, int seed) {
        long h1 = seed & 0xffffffffL;
        long h2 = h1;
        int blocks = length >>> 4;
        for (int b = 0; b < blocks; b++) {
            int at = offset + (b << 4);
            long k1 = littleEndianLong(data, at);
            long k2 = littleEndianLong(data, at + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = offset + (blocks << 4);
        int rest = length & 15;
        long k1 = 0;
        long k2 = 0;
        for (int i = rest - 1; i >= 8; i--) {
            k2 = (k2 << 8) | (data[tail + i] & 0xffL);
        }
        for (int i = Math.min(rest, 8) - 1; i >= 0; i--) {
            k1 = (k1 << 8) | (data[tail + i] & 0xffL);
        }
        if (rest > 8) {
            h2 ^= mixK2(k2);
        }
        if (rest > 0) {
            h1 ^= mixK1(k1);
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        return h1;
    }

    private static long mixK1(long k1) {
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        return k1 * C2;
    }

    private static long mixK2(long k2) {
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        return k2 * C1;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    private static long littleEndianLong(byte[] data, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (data[at + i] & 0xffL);
        }
        return v;
    }
}
