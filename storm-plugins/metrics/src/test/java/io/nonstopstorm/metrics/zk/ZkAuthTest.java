package io.nonstopstorm.metrics.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.apache.storm.shade.org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.Test;

class ZkAuthTest {
    // The same vector as the Python tests (tests/unit/test_zkauth.py).
    private static final String PAYLOAD = "nonstop:s3cret";
    private static final String ID = "nonstop:F6N1rtgBik8KxU2s1GFldtQv84c=";
    private static final String METRICS = "/nonstop/metrics";
    private static final ACL WORLD_READ = new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE);

    private static Map<String, Object> conf(Object scheme, Object payload) {
        return Map.of(ZkAuth.AUTH_SCHEME, scheme, ZkAuth.AUTH_PAYLOAD, payload);
    }

    @Test
    void aConfWithoutAuthKeysMeansAnOpenZooKeeper() {
        assertTrue(ZkAuth.fromConf(Map.of("storm.zookeeper.port", 2181)).isEmpty());
    }

    @Test
    void theDigestIsZooKeepersAndMatchesThePythonClients() {
        ZkAuth auth = ZkAuth.fromConf(conf("digest", PAYLOAD)).orElseThrow();
        assertEquals(new Id("digest", ID), auth.principal());
        assertFalse(auth.toString().contains("s3cret"));
    }

    @Test
    void suiteZnodesAreForTheDigestPrincipalOnly() {
        ZkAuth auth = ZkAuth.fromConf(conf("digest", PAYLOAD)).orElseThrow();
        List<ACL> only = List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", ID)));
        for (String path : List.of("/nonstop", "/nonstop/plans/wc", "/nonstop/controller/state", METRICS + "/t/h-1")) {
            assertEquals(only, auth.acl(path, METRICS), path);
            assertEquals(only, auth.aclProvider(METRICS).getAclForPath(path), path);
        }
        assertEquals(only, auth.aclProvider(null).getDefaultAcl());
    }

    @Test
    void metricsDocumentsAreWorldReadableOnlyWhenConfigured() {
        Map<String, Object> c = Map.of(ZkAuth.AUTH_SCHEME, "digest", ZkAuth.AUTH_PAYLOAD, PAYLOAD,
            ZkAuth.METRICS_WORLD_READ, true);
        ZkAuth auth = ZkAuth.fromConf(c).orElseThrow();
        assertTrue(auth.acl(METRICS + "/t/h-1", METRICS).contains(WORLD_READ));
        assertFalse(auth.acl("/nonstop/plans/t", METRICS).contains(WORLD_READ));
        assertFalse(auth.acl("/nonstop/metricsx", METRICS).contains(WORLD_READ));
        assertFalse(auth.acl(METRICS + "/t/h-1", null).contains(WORLD_READ), "plans' clients never open metrics");
    }

    @Test
    void badConfIsOneClearError() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ZkAuth.fromConf(conf("sasl", PAYLOAD)))
            .getMessage().contains("must be 'digest'"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> ZkAuth.fromConf(Map.of(ZkAuth.AUTH_SCHEME, "digest"))).getMessage().contains("is not set"));
        for (String bad : List.of("nopassword", "user:", "a b:c", "u:p:q")) {
            assertThrows(IllegalArgumentException.class, () -> ZkAuth.fromConf(conf("digest", bad)), bad);
        }
        Map<String, Object> c = Map.of(ZkAuth.AUTH_SCHEME, "digest", ZkAuth.AUTH_PAYLOAD, PAYLOAD,
            ZkAuth.METRICS_WORLD_READ, "yes");
        assertThrows(IllegalArgumentException.class, () -> ZkAuth.fromConf(c));
    }
}
