package io.nonstopstorm.grouping.storm;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Turns the key fields of a tuple into the bytes the routing cores hash. A {@code byte[]} value is
 * used as is, anything else as the UTF-8 of its {@code toString()} (so a String key hashes the same
 * here as in the simulator); several fields are joined with the ASCII unit separator 0x1F.
 */
final class KeyEncoding {
    private static final int SEPARATOR = 0x1F;

    private KeyEncoding() {
    }

    /** Encodes {@code values[indexes[0]], values[indexes[1]], ...}; all values if {@code indexes} is null. */
    static byte[] encode(List<Object> values, int[] indexes) {
        int count = indexes == null ? values.size() : indexes.length;
        if (count == 1) {
            return bytesOf(values.get(indexes == null ? 0 : indexes[0]));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                out.write(SEPARATOR);
            }
            out.writeBytes(bytesOf(values.get(indexes == null ? i : indexes[i])));
        }
        return out.toByteArray();
    }

    private static byte[] bytesOf(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        return String.valueOf(value).getBytes(StandardCharsets.UTF_8);
    }
}
