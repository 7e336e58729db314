package io.nonstopstorm.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One JSON object of a document read from outside the JVM, with typed getters that name the field's path
 * ({@code $.window.seq}) in every error. Pure. "Missing" (no such key) and JSON {@code null} are told
 * apart: the required getters refuse a missing key, {@link #number} reads {@code null} as "not known".
 */
public final class DocumentFields {

    /** A field that is missing or has the wrong type; the message starts with its path. */
    public static final class Invalid extends IllegalArgumentException {
        public Invalid(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            // Expected on bad input and reported by message only: no stack to capture.
            return this;
        }
    }

    private final Map<?, ?> map;
    private final String path;

    DocumentFields(Object value, String path) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new Invalid(path + ": expected an object");
        }
        this.map = m;
        this.path = path;
    }

    /** Where this object is in its document, e.g. {@code $.executors[2]}. */
    public String path() {
        return path;
    }

    public boolean has(String key) {
        return map.containsKey(key);
    }

    /** The raw value, or null when missing or JSON null. */
    public Object raw(String key) {
        return map.get(key);
    }

    public String at(String key) {
        return path + "." + key;
    }

    private Object field(String key) {
        if (!map.containsKey(key)) {
            throw new Invalid(at(key) + ": missing");
        }
        return map.get(key);
    }

    public DocumentFields object(String key) {
        return new DocumentFields(field(key), at(key));
    }

    /** A list of objects, each with its path ({@code $.key[i]}). */
    public List<DocumentFields> objects(String key) {
        List<?> items = list(key);
        List<DocumentFields> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            out.add(new DocumentFields(items.get(i), at(key) + "[" + i + "]"));
        }
        return out;
    }

    public List<?> list(String key) {
        if (!(field(key) instanceof List<?> l)) {
            throw new Invalid(at(key) + ": expected a list");
        }
        return l;
    }

    /** A non-empty string. */
    public String string(String key) {
        if (!(field(key) instanceof String s) || s.isEmpty()) {
            throw new Invalid(at(key) + ": expected a non-empty string");
        }
        return s;
    }

    public long integer(String key) {
        Object v = field(key);
        if (!isInteger(v)) {
            throw new Invalid(at(key) + ": expected an integer, got " + v);
        }
        return ((Number) v).longValue();
    }

    public long nonNegativeInteger(String key) {
        long v = integer(key);
        if (v < 0) {
            throw new Invalid(at(key) + ": must be >= 0, got " + v);
        }
        return v;
    }

    /** A finite non-negative number, or empty for JSON null ("not known in this window"). */
    public OptionalDouble number(String key) {
        Object v = field(key);
        if (v == null) {
            return OptionalDouble.empty();
        }
        if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue()) || n.doubleValue() < 0) {
            throw new Invalid(at(key) + ": expected a finite non-negative number, got " + v);
        }
        return OptionalDouble.of(n.doubleValue());
    }

    /** As {@link #number}, and a missing key is empty too (a field later versions added). */
    public OptionalDouble optionalNumber(String key) {
        return has(key) ? number(key) : OptionalDouble.empty();
    }

    /** A finite non-negative number that must be known. */
    public double requiredNumber(String key) {
        return number(key).orElseThrow(() -> new Invalid(at(key) + ": must not be null"));
    }

    static boolean isInteger(Object v) {
        return v instanceof Integer || v instanceof Long;
    }
}
