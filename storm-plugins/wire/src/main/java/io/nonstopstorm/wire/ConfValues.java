package io.nonstopstorm.wire;

import java.util.Map;
import java.util.function.Function;

/**
 * Typed reads of one key of a Storm conf map (storm.yaml merged with a topology's conf): a YAML value or
 * its string form, the default when the key is absent, and an {@link IllegalArgumentException} naming the
 * key and the value otherwise. Pure; the one reader the plugins share.
 */
public final class ConfValues {
    private ConfValues() {
    }

    /** A whole number that fits an int. */
    public static int integer(Map<String, Object> conf, String key, int dflt) {
        return number(conf, key, dflt, Number::intValue, Integer::parseInt, "an integer");
    }

    /** A whole number. */
    public static long wholeNumber(Map<String, Object> conf, String key, long dflt) {
        return number(conf, key, dflt, Number::longValue, Long::parseLong, "a whole number");
    }

    /** Any number. */
    public static double decimal(Map<String, Object> conf, String key, double dflt) {
        return number(conf, key, dflt, Number::doubleValue, Double::parseDouble, "a number");
    }

    /** A YAML boolean, or the string true or false in any case. */
    public static boolean flag(Map<String, Object> conf, String key, boolean dflt) {
        Object v = conf.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = v.toString().trim().toLowerCase();
        if (s.equals("true") || s.equals("false")) {
            return Boolean.parseBoolean(s);
        }
        throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
    }

    private static <T> T number(Map<String, Object> conf, String key, T dflt, Function<Number, T> fromNumber,
                                Function<String, T> parse, String kind) {
        Object v = conf.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number n) {
            return fromNumber.apply(n);
        }
        try {
            return parse.apply(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be " + kind + ", got '" + v + "'");
        }
    }
}
