package io.nonstopstorm.migration.verify;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which advice really got into Storm's classes. The transformer notes each advice whose target method
 * exists in a type ({@link #matched}); only when the listener reports the type as transformed
 * ({@link #transformed}) does it count as woven: ByteBuddy skips a whole type on any error (a field of
 * another type, a missing field), leaving just a line on stderr. Thread-safe.
 */
public final class WovenAdvice {
    private final Map<String, Set<String>> pending = new HashMap<>();
    private final Set<String> woven = new HashSet<>();
    private final Map<String, String> errors = new HashMap<>();

    public synchronized void matched(String typeName, String advice) {
        pending.computeIfAbsent(typeName, k -> new HashSet<>()).add(advice);
    }

    public synchronized void transformed(String typeName) {
        Set<String> p = pending.remove(typeName);
        if (p != null) {
            woven.addAll(p);
        }
    }

    public synchronized void failed(String typeName, Throwable error) {
        pending.remove(typeName);
        errors.put(typeName, String.valueOf(error));
    }

    public synchronized Set<String> woven() {
        return Set.copyOf(woven);
    }

    /** One entry per type ByteBuddy could not transform, with its error. */
    public synchronized List<String> errors() {
        return errors.entrySet().stream().sorted(Map.Entry.comparingByKey())
            .map(e -> "type " + e.getKey() + " not transformed (" + e.getValue() + ")").toList();
    }
}
