package io.nonstopstorm.scheduling.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict, path-aware reads of one JSON object: every error names the place in the document
 * ({@code topologies[0].traffic[3].rate}) and what was expected; unknown fields are errors, so a typo
 * never silently falls back to a default.
 */
final class JsonFields {

    private final JsonNode node;
    private final String path;

    private JsonFields(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    /** The object at {@code path}, or an error if {@code node} is not an object. */
    static JsonFields object(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw new InputError(where(path) + "expected an object, got " + describe(node));
        }
        return new JsonFields(node, path);
    }

    String path() {
        return path;
    }

    String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Fails on any field not in {@code allowed}. */
    JsonFields allowOnly(String... allowed) {
        Set<String> ok = new TreeSet<>(List.of(allowed));
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!ok.contains(name)) {
                throw new InputError(where(path) + "unknown field '" + name + "' (expected: " + String.join(", ", ok) + ")");
            }
        }
        return this;
    }

    boolean has(String key) {
        return node.has(key) && !node.get(key).isNull();
    }

    JsonNode required(String key) {
        if (!has(key)) {
            throw new InputError(where(path) + "missing required field '" + key + "'");
        }
        return node.get(key);
    }

    Optional<JsonNode> optional(String key) {
        return has(key) ? Optional.of(node.get(key)) : Optional.empty();
    }

    String string(String key) {
        JsonNode v = required(key);
        if (!v.isTextual() || v.asText().isBlank()) {
            throw new InputError(where(path(key)) + "expected a non-empty string, got " + describe(v));
        }
        return v.asText();
    }

    double number(String key) {
        return number(required(key), path(key));
    }

    double number(String key, double fallback) {
        return has(key) ? number(key) : fallback;
    }

    boolean bool(String key, boolean fallback) {
        Optional<JsonNode> v = optional(key);
        if (v.isEmpty()) {
            return fallback;
        }
        if (!v.get().isBoolean()) {
            throw new InputError(where(path(key)) + "expected true or false, got " + describe(v.get()));
        }
        return v.get().asBoolean();
    }

    double nonNegative(String key, double fallback) {
        double v = number(key, fallback);
        if (!(v >= 0)) {
            throw new InputError(where(path(key)) + "must be >= 0, got " + v);
        }
        return v;
    }

    double unitInterval(String key, double fallback) {
        double v = number(key, fallback);
        if (!(v >= 0 && v <= 1)) {
            throw new InputError(where(path(key)) + "must be in [0, 1], got " + v);
        }
        return v;
    }

    long integer(String key, long min) {
        return integer(required(key), path(key), min);
    }

    long integer(String key, long min, long fallback) {
        return has(key) ? integer(key, min) : fallback;
    }

    JsonFields object(String key) {
        return object(required(key), path(key));
    }

    Optional<JsonFields> optionalObject(String key) {
        return optional(key).map(v -> object(v, path(key)));
    }

    List<JsonNode> array(String key) {
        JsonNode v = required(key);
        if (!v.isArray()) {
            throw new InputError(where(path(key)) + "expected a list, got " + describe(v));
        }
        List<JsonNode> items = new ArrayList<>();
        v.forEach(items::add);
        return items;
    }

    List<JsonNode> optionalArray(String key) {
        return has(key) ? array(key) : List.of();
    }

    /** The object's fields in document order. */
    List<Map.Entry<String, JsonNode>> entries() {
        return new ArrayList<>(node.properties());
    }

    static double number(JsonNode v, String path) {
        if (v == null || !v.isNumber()) {
            throw new InputError(where(path) + "expected a number, got " + describe(v));
        }
        double d = v.asDouble();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new InputError(where(path) + "expected a finite number, got " + v);
        }
        return d;
    }

    static long integer(JsonNode v, String path, long min) {
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new InputError(where(path) + "expected an integer, got " + describe(v));
        }
        long l = v.asLong();
        if (l < min) {
            throw new InputError(where(path) + "must be >= " + min + ", got " + l);
        }
        return l;
    }

    static String string(JsonNode v, String path) {
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new InputError(where(path) + "expected a non-empty string, got " + describe(v));
        }
        return v.asText();
    }

    static String where(String path) {
        return path.isEmpty() ? "" : path + ": ";
    }

    static String describe(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "nothing";
        }
        String type = v.isObject() ? "an object" : v.isArray() ? "a list" : v.isTextual() ? "a string"
                : v.isNumber() ? "a number" : v.isBoolean() ? "a boolean" : "null";
        String text = v.toString();
        return text.length() > 40 ? type : type + " (" + text + ")";
    }
}
