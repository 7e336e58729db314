package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretKeysTest {

    @Test
    void credentialsAreSecretAndTheirNeighboursAreNot() {
        for (String key : List.of("nonstop.ui.token", "storm.zookeeper.auth.payload", "storm.zookeeper.topology.auth.payload",
            "ui.https.keystore.password", "drpc.https.key.password", "nonstop.api.secret", "my_password")) {
            assertTrue(SecretKeys.isSecret(key), key);
        }
        for (String key : List.of("storm.zookeeper.auth.scheme", "nonstop.ui.token.file.mode", "ui.port", "tokens",
            "topology.workers", "java.security.auth.login.config")) {
            assertFalse(SecretKeys.isSecret(key), key);
        }
    }

    @Test
    void redactMasksValuesKeepsOrderAndLeavesTheInputAlone() {
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put("z.port", 1);
        conf.put("nonstop.ui.token", "t0ken-0123456789abcdef");
        conf.put("a.password", null);
        Map<String, Object> shown = SecretKeys.redact(conf);
        assertEquals(List.of("z.port", "nonstop.ui.token", "a.password"), List.copyOf(shown.keySet()));
        assertEquals("*****", shown.get("nonstop.ui.token"));
        assertEquals(null, shown.get("a.password"));
        assertEquals(1, shown.get("z.port"));
        assertEquals("t0ken-0123456789abcdef", conf.get("nonstop.ui.token"));
    }
}
