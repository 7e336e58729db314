package io.nonstopstorm.migration.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.migration.state.StatefulBoltSnapshot.AckIdentity;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.InMemory;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.Request;
import io.nonstopstorm.migration.state.StatefulBoltSnapshot.Transaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatefulBoltSnapshotTest {
    private static final StatefulBoltSnapshot FULL = new StatefulBoltSnapshot(
        7, List.of(new Request("PREPARE", 8, 1)),
        new InMemory(Map.of("a", 3L, "b", 1L), new Transaction(7, Map.of("a", 2L)), new Transaction(6, Map.of("a", 1L))),
        List.of(new AckIdentity("numbers", 4, "default", Map.of(1L, 2L), 9L)),
        List.of(new AckIdentity("numbers", 4, "default", Map.of(3L, 4L), 0L)));

    @Test
    void everyPartSurvivesTheWireForm() {
        assertEquals(FULL, StatefulBoltSnapshot.fromWire(FULL.toWire()));
        StatefulBoltSnapshot bare = new StatefulBoltSnapshot(Long.MIN_VALUE, List.of(), new InMemory(Map.of(), null, null),
                                                             List.of(), List.of());
        assertEquals(bare, StatefulBoltSnapshot.fromWire(bare.toWire()));
        assertEquals(UNSTORED, StatefulBoltSnapshot.fromWire(UNSTORED.toWire()));
        assertOnlyDefaults(UNSTORED.toWire());
    }

    /** A persistent provider's snapshot: only what its store lacks. */
    private static final StatefulBoltSnapshot UNSTORED = new StatefulBoltSnapshot(
        3, List.of(), new UnstoredChanges(Map.of("a", 4L), List.of("gone")), List.of(),
        List.of(new AckIdentity("numbers", 4, "default", Map.of(3L, 4L), 0L)));

    @Test
    void theUnstoredChangesTurnTheStoredViewIntoTheCurrentOne() {
        Map<String, Long> stored = Map.of("same", 1L, "changed", 2L, "deleted", 3L);
        Map<String, Long> current = Map.of("same", 1L, "changed", 5L, "added", 7L);
        UnstoredChanges u = UnstoredChanges.between(stored, current);
        assertEquals(Map.of("changed", 5L, "added", 7L), u.puts());
        assertEquals(List.of("deleted"), u.deletes());
        Map<Object, Object> applied = new HashMap<>(stored);
        u.deletes().forEach(applied::remove);
        applied.putAll(u.puts());
        assertEquals(current, applied);
        assertEquals(new UnstoredChanges(Map.of(), List.of()), UnstoredChanges.between(current, current));
        assertThrows(IllegalArgumentException.class, () -> new UnstoredChanges(Map.of("k", 1L), List.of("k")));
    }

    @Test
    void anUnknownStateKindIsRefusedWithTheKind() {
        Map<String, Object> w = UNSTORED.toWire();
        w.put("state_kind", "redis");
        assertEquals("state_kind is redis, expected in_memory or unstored",
                     assertThrows(IllegalArgumentException.class, () -> StatefulBoltSnapshot.fromWire(w)).getMessage());
        Map<String, Object> noDeletes = UNSTORED.toWire();
        noDeletes.remove("deletes");
        assertEquals("deletes is missing, expected a List",
                     assertThrows(IllegalArgumentException.class, () -> StatefulBoltSnapshot.fromWire(noDeletes)).getMessage());
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
        w.put("format", 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StatefulBoltSnapshot.fromWire(w)).getMessage()
                       .contains("format 1"));
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
