package io.nonstopstorm.migration.config;

import java.util.Map;

/** Reading typed values out of a Storm conf map, with the key named in the error. */
public final class ConfValues {
    private ConfValues() {
    }

    /** A whole number (a YAML number or its string form); dflt when absent. */
    public static long wholeNumber(Map<String, Object> conf, String key, long dflt) {
        Object v = conf.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        try {
            return Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, got '" + v + "'");
        }
    }
}
