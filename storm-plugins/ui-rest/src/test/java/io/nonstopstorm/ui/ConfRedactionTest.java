package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfRedactionTest {
    @Test
    void zooKeeperPayloadsAndTheUiTokenAreHiddenEverythingElseKept() {
        Map<String, Object> conf = new HashMap<>();
        conf.put("storm.zookeeper.auth.payload", "nonstop:secret-pw");
        conf.put("storm.zookeeper.topology.auth.payload", "nonstop:secret-pw");
        conf.put("nonstop.ui.token", "secret-token");
        conf.put("storm.zookeeper.auth.password", null);
        conf.put("storm.zookeeper.auth.scheme", "digest");
        conf.put("storm.zookeeper.port", 2181);
        Map<String, Object> shown = ConfRedaction.redact(conf);
        assertEquals(ConfRedaction.HIDDEN, shown.get("storm.zookeeper.auth.payload"));
        assertEquals(ConfRedaction.HIDDEN, shown.get("storm.zookeeper.topology.auth.payload"));
        assertEquals(ConfRedaction.HIDDEN, shown.get("nonstop.ui.token"));
        assertTrue(shown.containsKey("storm.zookeeper.auth.password") && shown.get("storm.zookeeper.auth.password") == null);
        assertEquals("digest", shown.get("storm.zookeeper.auth.scheme"));
        assertEquals(2181, shown.get("storm.zookeeper.port"));
    }

    @Test
    void nimbusConfJsonIsRedactedToo() {
        String shown = ConfRedaction.redactJson("{\"storm.zookeeper.auth.payload\":\"nonstop:secret-pw\",\"ui.port\":8080}");
        assertFalse(shown.contains("secret-pw"), shown);
        assertTrue(shown.contains("\"ui.port\":8080"), shown);
    }
}
