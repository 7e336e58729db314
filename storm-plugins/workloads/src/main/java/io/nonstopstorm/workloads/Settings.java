package io.nonstopstorm.workloads;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.org.yaml.snakeyaml.Yaml;

/** Parses "key=value" settings; values are YAML scalars or flow collections ("[a, b]", "{k: v}"). */
public final class Settings {
    private Settings() {
    }

    public static Map<String, Object> parse(List<String> settings) {
        Map<String, Object> out = new LinkedHashMap<>();
        Yaml yaml = new Yaml();
        for (String s : settings) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("bad setting '" + s + "': expected key=value");
            }
            String key = s.substring(0, eq).trim();
            String raw = s.substring(eq + 1);
            Object value;
            try {
                value = raw.isEmpty() ? "" : yaml.load(raw);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("bad value for '" + key + "': " + raw);
            }
            out.put(key, value);
        }
        return out;
    }
}
