package io.nonstopstorm.scheduling.storm;

import java.util.Map;

/**
 * Typed, validated reads of the {@code nonstop.*} keys from a topology's (or Nimbus's) configuration.
 * A bad value raises {@link IllegalArgumentException} naming the key; the scheduler turns it into a
 * status message and a fallback.
 */
final class TopologyConf {

    private final Map<String, Object> conf;

    TopologyConf(Map<String, Object> conf) {
        this.conf = conf == null ? Map.of() : conf;
    }

    String string(String key) {
        Object v = conf.get(key);
        return v == null ? null : v.toString();
    }

    double unitInterval(String key, double fallback) {
        double v = number(key, fallback);
        if (!(v >= 0 && v <= 1)) {
            throw new IllegalArgumentException(key + " must be in [0,1], got " + v);
        }
        return v;
    }

    double nonNegative(String key, double fallback) {
        double v = number(key, fallback);
        if (!(v >= 0)) {
            throw new IllegalArgumentException(key + " must be >= 0, got " + v);
        }
        return v;
    }

    boolean flag(String key, boolean fallback) {
        Object v = conf.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = v.toString().trim().toLowerCase();
        if (s.equals("true") || s.equals("false")) {
            return Boolean.parseBoolean(s);
        }
        throw new IllegalArgumentException(key + " must be true or false, got " + v);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> map(String key) {
        Object v = conf.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException(key + " must be a map, got " + v);
        }
        return (Map<String, Object>) v;
    }

    private double number(String key, double fallback) {
        Object v = conf.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        try {
            return Double.parseDouble(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got " + v);
        }
    }
}
