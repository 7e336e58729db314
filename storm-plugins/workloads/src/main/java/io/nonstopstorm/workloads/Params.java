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

    public long longValue(String key, long dflt) {
        Object v = conf.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number) {
            return ((Number) v).longValue();
        }
        try {
            return Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'");
        }
    }

    public boolean boolValue(String key, boolean dflt) {
        Object v = conf.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Boolean) {
            return (Boolean) v;
        }
        String s = v.toString().trim().toLowerCase(java.util.Locale.ROOT);
        if (s.equals("true") || s.equals("false")) {
            return Boolean.parseBoolean(s);
        }
        throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
    }

    /** The value as a string; null (absent) or blank gives the default. */
    public String stringValue(String key, String dflt) {
        Object v = conf.get(key);
        if (v == null || v.toString().isBlank()) {
            return dflt;
        }
        return v.toString();
    }

    /** An integer that must be at least {@code min}. */
    public int intAtLeast(String key, int dflt, int min) {
        int v = intValue(key, dflt);
        if (v < min) {
            throw new IllegalArgumentException(key + " must be >= " + min + ", got " + v);
        }
        return v;
    }

    /** A number that must be at least {@code min}. */
    public double doubleAtLeast(String key, double dflt, double min) {
        double v = doubleValue(key, dflt);
        if (!(v >= min)) {
            throw new IllegalArgumentException(key + " must be >= " + min + ", got " + v);
        }
        return v;
    }

    /** Parallelism of a component: workload.par.&lt;component&gt; if set, else the default. */
    public int parallelism(String component, int dflt) {
        return intAtLeast("workload.par." + component, dflt, 1);
    }
}
