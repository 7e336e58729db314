package io.nonstopstorm.workloads.feed;

import java.util.List;

/** Makes the tuple values of the item with a given global index (0, 1, 2, ... across all spout tasks). */
@FunctionalInterface
public interface ItemMaker {
    List<Object> make(long globalIndex);

    /** Lines of a text (e.g. sentences), cycled: 1 field = [line], 2 fields = [index, line]. */
    static ItemMaker lines(List<String> lines, int fields) {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("the input has no lines");
        }
        return g -> {
            String line = lines.get((int) (g % lines.size()));
            return fields == 1 ? List.of(line) : List.of(Long.toString(g), line);
        };
    }

    /**
     * Synthetic items: key "k&lt;g mod keys&gt;" and a payload of exactly {@code payloadBytes} ASCII
     * characters (starting with the index, so payloads differ). 1 field = [payload], 2 = [key, payload].
     */
    static ItemMaker generated(int keys, int payloadBytes, int fields) {
        if (keys < 1) {
            throw new IllegalArgumentException("workload.keys must be >= 1, got " + keys);
        }
        return g -> {
            String payload = payload(g, payloadBytes);
            return fields == 1 ? List.of(payload) : List.of("k" + (g % keys), payload);
        };
    }

    static String payload(long g, int bytes) {
        StringBuilder sb = new StringBuilder(bytes);
        sb.append(g).append(':');
        while (sb.length() < bytes) {
            sb.append((char) ('a' + (sb.length() % 26)));
        }
        sb.setLength(bytes);
        return sb.toString();
    }
}
