package io.nonstopstorm.migration.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The part of a persistent provider's state that lives only in the old instance's JVM
 * ({@link StoreBackedState}): keys to put and keys to delete, relative to what a new instance reads from the
 * store. Deletes are applied before puts, so a key is never both.
 *
 * @param puts    keys whose value differs from the store's view, with the value the bolt sees
 * @param deletes keys the store's view has and the bolt deleted
 */
public record UnstoredChanges(Map<Object, Object> puts, List<Object> deletes) implements StatefulBoltSnapshot.Contents {
    public UnstoredChanges {
        puts = Map.copyOf(Objects.requireNonNull(puts, "puts"));
        deletes = List.copyOf(deletes);
        for (Object d : deletes) {
            if (puts.containsKey(d)) {
                throw new IllegalArgumentException("key " + d + " is both put and deleted");
            }
        }
    }

    /**
     * What turns {@code stored} (what a new instance reads from the store) into {@code current} (what the bolt
     * sees): every key of {@code current} whose value is not the stored one, and every stored key it lacks.
     */
    public static UnstoredChanges between(Map<?, ?> stored, Map<?, ?> current) {
        Map<Object, Object> puts = new HashMap<>();
        current.forEach((k, v) -> {
            if (!Objects.equals(stored.get(k), v) || !stored.containsKey(k)) {
                puts.put(k, v);
            }
        });
        List<Object> deletes = new ArrayList<>();
        for (Object k : stored.keySet()) {
            if (!current.containsKey(k)) {
                deletes.add(k);
            }
        }
        return new UnstoredChanges(puts, deletes);
    }
}
