package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TupleSizeEstimateTest {

    @Test
    void countsEachValueByItsKind() {
        assertEquals(TupleSizeEstimate.TUPLE_OVERHEAD, TupleSizeEstimate.of(List.of()));
        assertEquals(TupleSizeEstimate.TUPLE_OVERHEAD + 40 + 2 * 5 + 16 + 16 + 100,
                     TupleSizeEstimate.of(List.of("hello", 7L, new byte[100])));
        assertEquals(TupleSizeEstimate.TUPLE_OVERHEAD + 16 + 3 * 16 + 16 + 48 * 2 + 16,
                     TupleSizeEstimate.of(Arrays.asList(List.of(1, 2, 3), Map.of("a", 1, "b", 2), null)));
        assertEquals(TupleSizeEstimate.TUPLE_OVERHEAD + TupleSizeEstimate.OTHER_VALUE,
                     TupleSizeEstimate.of(List.of(new Object())));
        assertEquals(TupleSizeEstimate.TUPLE_OVERHEAD, TupleSizeEstimate.of(null));
    }
}
