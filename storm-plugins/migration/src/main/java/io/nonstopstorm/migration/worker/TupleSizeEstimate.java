package io.nonstopstorm.migration.worker;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A cheap estimate of the heap a parked tuple holds, in bytes, for bounding the parked tuples by
 * memory. Pure. Not a measurement: it looks at the tuple's values one level deep and never walks object
 * graphs, so it costs a few operations per value.
 *
 * <ul>
 *   <li>{@value #TUPLE_OVERHEAD} bytes per tuple (the tuple, its value list and its address);</li>
 *   <li>a String: 40 + 2 × its length (a header plus one UTF-16 char per character, the worst case of
 *       compact strings);</li>
 *   <li>a byte[]: 16 + its length; other arrays and collections: 16 + 16 per element (a reference and a
 *       small boxed element each); a map: 16 + 48 per entry;</li>
 *   <li>a boxed number, a boolean, a character, null: {@value #SMALL_VALUE} bytes;</li>
 *   <li>anything else: {@value #OTHER_VALUE} bytes (its size is unknown without walking it).</li>
 * </ul>
 */
public final class TupleSizeEstimate {
    static final long TUPLE_OVERHEAD = 96;
    static final long SMALL_VALUE = 16;
    static final long OTHER_VALUE = 64;

    private TupleSizeEstimate() {
    }

    public static long of(List<?> values) {
        long bytes = TUPLE_OVERHEAD;
        if (values != null) {
            for (Object v : values) {
                bytes += value(v);
            }
        }
        return bytes;
    }

    static long value(Object v) {
        if (v == null || v instanceof Number || v instanceof Boolean || v instanceof Character) {
            return SMALL_VALUE;
        }
        if (v instanceof CharSequence s) {
            return 40 + 2L * s.length();
        }
        if (v instanceof byte[] b) {
            return 16 + (long) b.length;
        }
        if (v instanceof Object[] a) {
            return 16 + 16L * a.length;
        }
        if (v instanceof Collection<?> c) {
            return 16 + 16L * c.size();
        }
        if (v instanceof Map<?, ?> m) {
            return 16 + 48L * m.size();
        }
        return OTHER_VALUE;
    }
}
