package io.nonstopstorm.ui;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Config keys whose values are credentials: the UI shows them masked, as Storm logs its own password keys. Storm
 * marks only its *.password keys; the ZooKeeper digest payloads and this server's own token must not be readable
 * by anyone who may GET the configuration either.
 */
final class SecretKeys {

    /** Storm's own mask for password keys. */
    static final String MASK = "*****";
    private static final Pattern SECRET = Pattern.compile("(^|[._-])(password|payload|token|secret)$",
        Pattern.CASE_INSENSITIVE);

    private SecretKeys() {
    }

    static boolean isSecret(String key) {
        return SECRET.matcher(key).find();
    }

    /** A copy of conf, in the same order, with every secret's value masked. */
    static Map<String, Object> redact(Map<String, Object> conf) {
        Map<String, Object> out = new LinkedHashMap<>();
        conf.forEach((key, value) -> out.put(key, value != null && isSecret(key) ? MASK : value));
        return out;
    }
}
