package io.nonstopstorm.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Hides secrets in configurations the API shows: Nimbus returns its conf and a topology's verbatim, with
 * the cluster's ZooKeeper digest payload ({@code storm.zookeeper.auth.payload}, also the topology payload)
 * and the UI token ({@code nonstop.ui.token}); anyone who may read the API would get write access to
 * ZooKeeper and to the API. Every key ending in payload, password or token keeps its name, not its value.
 */
final class ConfRedaction {
    static final String HIDDEN = "*****";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConfRedaction() {
    }

    static boolean secret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.endsWith("payload") || k.endsWith("password") || k.endsWith("token");
    }

    static Map<String, Object> redact(Map<String, Object> conf) {
        Map<String, Object> out = new TreeMap<>(conf);
        out.replaceAll((k, v) -> v != null && secret(k) ? HIDDEN : v);
        return out;
    }

    /** A conf as Nimbus sends it (a JSON object), redacted. */
    static String redactJson(String json) {
        try {
            return JSON.writeValueAsString(redact(JSON.readValue(json, new TypeReference<Map<String, Object>>() { })));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Nimbus sent a configuration that is not a JSON object", e);
        }
    }
}
