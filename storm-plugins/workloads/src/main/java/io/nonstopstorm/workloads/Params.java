package io.nonstopstorm.workloads;

import java.util.Map;

/** Typed reads of "workload.*" parameters from a topology conf, with a clear error on bad values. */
public final class Params {
    private final Map<String, Object> conf;

    public Params(Map<String, Object> conf) {
        this.conf = conf;
    }

    public int intValue(String key, int dflt) {
        Object v = conf.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number) {
            return ((Number) v).intValue();
        }
        try {
            return Integer.parseInt(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'");
        }
    }

    public double doubleValue(String key, double dflt) {
        Object v = conf.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number) {
            return ((Number) v).doubleValue();
        }
        try {
            return Double.parseDouble(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got '" + v + "'");
        }
    }
}
