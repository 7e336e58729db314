package io.nonstopstorm.workloads.state;

import java.util.HashMap;

/**
 * State of a chosen size for the state-size benchmark: {@code bytes} split into values of {@code valueBytes}
 * (the last one shorter), keyed {@value #PREFIX}i, each filled from its index so that a value restored from
 * a snapshot can be checked against a fresh one.
 */
public final class Ballast {
    public static final String PREFIX = "ballast-";

    private Ballast() {
    }

    /** How much ballast a task holds: its total bytes, in values of valueBytes (Serializable: part of a bolt). */
    public record Spec(long bytes, int valueBytes) implements java.io.Serializable {
        public HashMap<String, byte[]> make() {
            return of(bytes, valueBytes);
        }
    }

    public static HashMap<String, byte[]> of(long bytes, int valueBytes) {
        if (bytes < 0 || valueBytes < 1) {
            throw new IllegalArgumentException("ballast needs bytes >= 0 and value bytes >= 1, got " + bytes + " and "
                + valueBytes);
        }
        HashMap<String, byte[]> out = new HashMap<>();
        long left = bytes;
        for (int i = 0; left > 0; i++) {
            byte[] v = new byte[(int) Math.min(valueBytes, left)];
            for (int j = 0; j < v.length; j++) {
                v[j] = (byte) (i * 31 + j);
            }
            out.put(PREFIX + i, v);
            left -= v.length;
        }
        return out;
    }

    /** Total bytes of the values under {@value #PREFIX} keys. */
    public static long size(Iterable<? extends java.util.Map.Entry<String, ?>> entries) {
        long n = 0;
        for (var e : entries) {
            if (e.getKey().startsWith(PREFIX) && e.getValue() instanceof byte[] b) {
                n += b.length;
            }
        }
        return n;
    }
}
