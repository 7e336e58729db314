package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.AuthorizationException;
import org.junit.jupiter.api.Test;

class ApiRouterTest {

    private final FakeNimbus nimbus = new FakeNimbus()
        .withTopology("wc-1-100", "wc", List.of("words"), List.of("split", "__acker"));
    private final ApiRouter router = new ApiRouter(nimbus, UiSettings.defaults("2.8.3"), Clock.systemUTC());

    private ApiResponse get(String pathAndQuery) {
        return router.handle(ApiRequest.of("GET", pathAndQuery));
    }

    private ApiResponse post(String path, String body) {
        return router.handle(ApiRequest.of("POST", path, null, body));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> body(ApiResponse r) {
        return (Map<String, Object>) r.body();
    }

    @Test
    void summariesReadTheClusterInfo() {
        for (String path : List.of("/api/v1/cluster/summary", "/api/v1/nimbus/summary", "/api/v1/supervisor/summary",
            "/api/v1/topology/summary")) {
            assertEquals(200, get(path).status(), path);
        }
        assertEquals(List.of("clusterInfo", "clusterInfo", "clusterInfo", "clusterInfo"), nimbus.calls);
        assertTrue(body(get("/api/v1/topology/summary")).containsKey("topologies"));
    }

    @Test
    void clusterConfigurationIsNimbusJsonWithSecretsMasked() {
        nimbus.nimbusConf = "{\"nimbus.thrift.port\":6627,\"nonstop.ui.token\":\"t0ken-0123456789abcdef\","
            + "\"storm.zookeeper.auth.payload\":\"nonstop:pw\",\"ui.https.key.password\":\"pw\","
            + "\"storm.zookeeper.auth.scheme\":\"digest\",\"storm.zookeeper.servers\":[\"zk1\"]}";
        ApiResponse r = get("/api/v1/cluster/configuration");
        assertEquals(200, r.status());
        Map<String, Object> conf = body(r);
        assertEquals(List.of("nimbus.thrift.port", "nonstop.ui.token", "storm.zookeeper.auth.payload",
            "ui.https.key.password", "storm.zookeeper.auth.scheme", "storm.zookeeper.servers"), List.copyOf(conf.keySet()));
        assertEquals(6627, conf.get("nimbus.thrift.port"));
        assertEquals("*****", conf.get("nonstop.ui.token"));
        assertEquals("*****", conf.get("storm.zookeeper.auth.payload"));
        assertEquals("*****", conf.get("ui.https.key.password"));
        assertEquals("digest", conf.get("storm.zookeeper.auth.scheme"));
        assertEquals(List.of("zk1"), conf.get("storm.zookeeper.servers"));
    }

    @Test
    void topologyPagePassesWindowAndSys() {
        ApiResponse r = get("/api/v1/topology/wc-1-100?window=600&sys=1");
        assertEquals(200, r.status());
        assertEquals("wc", body(r).get("name"));
        assertEquals("600", body(r).get("window"));
        assertEquals(List.of("topologyPage wc-1-100 600 true"), nimbus.calls);
        get("/api/v1/topology/wc-1-100");
        assertEquals("topologyPage wc-1-100 :all-time false", nimbus.calls.get(1));
    }

    @Test
    void unknownTopologyIsA404NamingIt() {
        for (ApiResponse r : List.of(get("/api/v1/topology/nope-1-1"), get("/api/v1/topology/nope-1-1/component/x"),
            get("/api/v1/topology-workers/nope-1-1"), post("/api/v1/topology/nope-1-1/kill/0", ""))) {
            assertEquals(404, r.status());
            assertEquals("404 Not Found", body(r).get("error"));
            assertTrue(((String) body(r).get("errorMessage")).contains("nope-1-1"));
        }
    }

    @Test
    void badParametersAreA400() {
        assertEquals(400, get("/api/v1/topology/wc-1-100?window=601").status());
        assertEquals(400, get("/api/v1/topology/wc-1-100/component/split?window=forever").status());
        assertEquals(400, get("/api/v1/topology/wc-1-100?sys=maybe").status());
        assertEquals(400, post("/api/v1/topology/wc-1-100/kill/-1", "").status());
        assertEquals(400, post("/api/v1/topology/wc-1-100/rebalance/soon", "").status());
        assertEquals(400, get("/api/v1/supervisor").status());
        assertTrue(nimbus.calls.isEmpty(), "rejected before asking Nimbus: " + nimbus.calls);
    }

    @Test
    void componentPageChecksTheComponentExists() {
        ApiResponse r = get("/api/v1/topology/wc-1-100/component/split?window=600");
        assertEquals(200, r.status());
        assertEquals("bolt", body(r).get("componentType"));
        assertEquals("spout", body(get("/api/v1/topology/wc-1-100/component/words")).get("componentType"));
        assertEquals(200, get("/api/v1/topology/wc-1-100/component/__acker?sys=1").status());
        ApiResponse missing = get("/api/v1/topology/wc-1-100/component/count");
        assertEquals(404, missing.status());
        assertTrue(((String) body(missing).get("errorMessage")).contains("count"));
    }

    @Test
    void operationsResolveTheNameAndAnswerLikeStorm() {
        ApiResponse kill = post("/api/v1/topology/wc-1-100/kill/5", "");
        assertEquals(Map.of("topologyOperation", "kill", "topologyId", "wc-1-100", "status", "success"), kill.body());
        assertEquals(5, nimbus.lastKill.get_wait_secs());
        assertEquals("activate", body(post("/api/v1/topology/wc-1-100/activate", "")).get("topologyOperation"));
        assertEquals("deactivate", body(post("/api/v1/topology/wc-1-100/deactivate", "")).get("topologyOperation"));
        assertEquals(200, post("/api/v1/topology/wc-1-100/rebalance/3", "{\"rebalanceOptions\": {\"numWorkers\": 4}}").status());
        assertEquals(3, nimbus.lastRebalance.get_wait_secs());
        assertEquals(4, nimbus.lastRebalance.get_num_workers());
        assertEquals(List.of("topologyInfo wc-1-100", "kill wc", "topologyInfo wc-1-100", "activate wc",
            "topologyInfo wc-1-100", "deactivate wc", "topologyInfo wc-1-100", "rebalance wc"), nimbus.calls);
    }

    @Test
    void unknownPathsAndMethods() {
        assertEquals(404, get("/api/v1/nothing").status());
        assertEquals(404, get("/").status());
        assertEquals(405, get("/api/v1/topology/wc-1-100/kill/0").status());
        assertEquals(405, post("/api/v1/cluster/summary", "").status());
    }

    @Test
    void nimbusFailuresMapToStatuses() {
        nimbus.failure = new NimbusUnavailableException("Nimbus is not reachable: refused", null);
        ApiResponse r = get("/api/v1/cluster/summary");
        assertEquals(503, r.status());
        assertEquals("503 Service Unavailable", body(r).get("error"));
        assertEquals("Nimbus is not reachable: refused", body(r).get("errorMessage"));
        nimbus.failure = new AuthorizationException("no");
        assertEquals(403, get("/api/v1/cluster/summary").status());
        nimbus.failure = null;
        assertEquals(200, get("/api/v1/cluster/summary").status());
    }

    @Test
    void supervisorPageByIdOrHost() {
        assertEquals(200, get("/api/v1/supervisor?id=sup-1").status());
        assertEquals(200, get("/api/v1/supervisor?host=h&sys=true").status());
        assertEquals(List.of("supervisorPage sup-1 null false", "supervisorPage null h true"), nimbus.calls);
        assertInstanceOf(List.class, body(get("/api/v1/supervisor?id=sup-1")).get("workers"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void placementListsEveryRunningTopologysExecutorsAndSaysWhyMovesAreMissing() {
        nimbus.cluster.add_to_topologies(Fixtures.topology("wc-1-100", "wc", 3, 3, 2));
        nimbus.cluster.add_to_topologies(Fixtures.topology("gone-2-200", "gone", 1, 1, 1)); // killed meanwhile
        nimbus.executors.put("wc-1-100", List.of(Fixtures.executor("split", 3, 3, "127.0.0.12", 37121, 5),
            Fixtures.executor("words", 1, 1, "127.0.0.11", 37101, 5)));
        ApiRouter offline = new ApiRouter(nimbus, UiSettings.defaults("2.8.3"), Clock.systemUTC(),
            MoveSource.unavailable("ZooKeeper (z:2181) is not reachable"));
        ApiResponse r = offline.handle(ApiRequest.of("GET", "/api/v1/nonstop/placement"));
        assertEquals(200, r.status());
        List<Map<String, Object>> topologies = (List<Map<String, Object>>) body(r).get("topologies");
        assertEquals(1, topologies.size());
        assertEquals(2, ((List<?>) topologies.get(0).get("nodes")).size());
        assertEquals(List.of(), body(r).get("moves"));
        assertEquals("ZooKeeper (z:2181) is not reachable", body(r).get("movesUnavailable"));
        assertEquals(405, offline.handle(ApiRequest.of("POST", "/api/v1/nonstop/placement")).status());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aMalformedDecisionHidesOnlyItsOwnTopologysMoves() {
        String good = RecordedMovesTest.decision("applied", 4, 10_400, RecordedMovesTest.ONE_MOVE);
        ApiRouter r = new ApiRouter(nimbus, UiSettings.defaults("2.8.3"), Clock.systemUTC(),
            () -> List.of(new DecisionDocs("bad", "{oops", 1, 0, null), new DecisionDocs("wc", good, 4, 10_000, null)));
        Map<String, Object> doc = body(r.handle(ApiRequest.of("GET", "/api/v1/nonstop/placement")));
        List<Map<String, Object>> moves = (List<Map<String, Object>>) doc.get("moves");
        assertEquals(1, moves.size());
        assertEquals("[3-3]", moves.get(0).get("executor"));
        assertEquals(400L, moves.get(0).get("planToDecisionMs"));
        assertTrue(((String) doc.get("movesUnavailable")).startsWith("/nonstop/decisions/bad: not JSON"));
    }

    @Test
    void placementNeedsNimbus() {
        nimbus.failure = new NimbusUnavailableException("Nimbus n:6627 is not reachable", null);
        assertEquals(503, get("/api/v1/nonstop/placement").status());
    }
}
