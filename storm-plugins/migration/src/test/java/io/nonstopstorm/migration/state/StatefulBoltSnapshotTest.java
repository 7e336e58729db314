package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.state.StatefulBoltSnapshot.AckIdentity;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.Request;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.Transaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatefulBoltSnapshotTest {
    private static final StatefulBoltSnapshot FULL = new StatefulBoltSnapshot(
        7, List.of(new Request("PREPARE", 8, 1)), Map.of("a", 3L, "b", 1L), new Transaction(7, Map.of("a", 2L)),
        new Transaction(6, Map.of("a", 1L)), List.of(new AckIdentity("numbers", 4, "default", Map.of(1L, 2L), 9L)),
        List.of(new AckIdentity("numbers", 4, "default", Map.of(3L, 4L), 0L)));

    @Test
    void everyPartSurvivesTheWireForm() {
        assertEquals(FULL, StatefulBoltSnapshot.fromWire(FULL.toWire()));
        StatefulBoltSnapshot bare = new StatefulBoltSnapshot(Long.MIN_VALUE, List.of(), Map.of(), null, null, List.of(),
                                                             List.of());
        assertEquals(bare, StatefulBoltSnapshot.fromWire(bare.toWire()));
    }

    @Test
    void theWireFormIsMadeOfKryoDefaultTypesOnly() {
        assertOnlyDefaults(FULL.toWire());
    }

    private static void assertOnlyDefaults(Object o) {
        if (o instanceof Map<?, ?> m) {
            assertEquals(HashMap.class, o.getClass());
            m.forEach((k, v) -> {
                assertOnlyDefaults(k);
                assertOnlyDefaults(v);
            });
        } else if (o instanceof List<?> l) {
            assertEquals(ArrayList.class, o.getClass());
            l.forEach(StatefulBoltSnapshotTest::assertOnlyDefaults);
        } else {
            assertTrue(o instanceof String || o instanceof Long || o instanceof Integer, String.valueOf(o));
        }
    }

    @Test
    void aWrongOrMissingPartIsNamed() {
        Map<String, Object> w = FULL.toWire();
        w.put("format", 2);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StatefulBoltSnapshot.fromWire(w)).getMessage()
                       .contains("format 2"));
        Map<String, Object> noAcked = FULL.toWire();
        noAcked.remove("acked");
        assertEquals("acked is missing, expected a List",
                     assertThrows(IllegalArgumentException.class, () -> StatefulBoltSnapshot.fromWire(noAcked)).getMessage());
        Map<String, Object> badTx = FULL.toWire();
        badTx.put("prepared", new ArrayList<>(List.of(7L)));
        assertEquals("prepared has 1 fields, expected 2",
                     assertThrows(IllegalArgumentException.class, () -> StatefulBoltSnapshot.fromWire(badTx)).getMessage());
        assertEquals("the snapshot is a String, expected a Map",
                     assertThrows(IllegalArgumentException.class, () -> StatefulBoltSnapshot.fromWire("x")).getMessage());
    }
}
