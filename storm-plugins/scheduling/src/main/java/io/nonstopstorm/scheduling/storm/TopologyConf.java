package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.wire.ConfValues;
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
        return ConfValues.flag(conf, key, fallback);
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
        return ConfValues.decimal(conf, key, fallback);
    }
}
