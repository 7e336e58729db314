package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The REST API over real HTTP against an in-process Storm cluster running a two-component topology, reaching
 * Nimbus over thrift through the production gateway.
 */
@Timeout(120)
class LocalClusterApiTest {

    private static final String NAME = "ui-rest-it";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "local-cluster-api-test-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static LocalCluster cluster;
    private static ReconnectingNimbusGateway nimbus;
    private static HttpApiServer server;
    private static String base;

    @BeforeAll
    static void startClusterAndServer() throws Exception {
        int nimbusPort = freePort();
        // Executors write their statistics every executor.metrics.frequency.secs (60 by default): speed that up.
        // withNimbusDaemon serves Nimbus over thrift, so the server reaches it as in a real cluster.
        cluster = new LocalCluster.Builder().withSupervisors(1).withPortsPerSupervisor(2).withNimbusDaemon()
            .withDaemonConf(Config.NIMBUS_THRIFT_PORT, nimbusPort)
            .withDaemonConf(Config.STORM_LOCAL_HOSTNAME, "localhost")
            .withDaemonConf(Config.EXECUTOR_METRICS_FREQUENCY_SECS, 1).build();
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", new TestWordSpout(), 1);
        builder.setBolt("count", new TestWordCounter(), 2).fieldsGrouping("words", new Fields("word"));
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_WORKERS, 1);
        conf.put(Config.EXECUTOR_METRICS_FREQUENCY_SECS, 1);
        cluster.submitTopology(NAME, conf, builder.createTopology());
        Map<String, Object> clientConf = new HashMap<>(Utils.readStormConfig());
        clientConf.put(Config.NIMBUS_SEEDS, List.of("localhost"));
        clientConf.put(Config.NIMBUS_THRIFT_PORT, nimbusPort);
        nimbus = ReconnectingNimbusGateway.fromStormConfig(clientConf);
        AccessSettings access = new AccessSettings("127.0.0.1", TOKEN, List.of(), false, 65536);
        server = HttpApiServer.start(0, new ApiRouter(nimbus, UiSettings.fromConfig(clientConf), Clock.systemUTC()),
            new RequestGuard(access));
        base = "http://127.0.0.1:" + server.address().getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (nimbus != null) {
            nimbus.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20))
            .header("Authorization", "Bearer " + TOKEN).method(method, HttpRequest.BodyPublishers.noBody()).build();
        return HTTP.send(req, HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode getJson(String path) throws Exception {
        HttpResponse<String> resp = send("GET", path);
        assertEquals(200, resp.statusCode(), path + " -> " + resp.body());
        return JSON.readTree(resp.body());
    }

    /** The topology's id, once Nimbus lists it. */
    private static String topologyId() throws Exception {
        for (JsonNode t : getJson("/api/v1/topology/summary").get("topologies")) {
            if (NAME.equals(t.get("name").asText())) {
                return t.get("id").asText();
            }
        }
        throw new AssertionError("topology " + NAME + " not listed");
    }

    @Test
    void topologySummaryAndComponentPageOverHttp() throws Exception {
        JsonNode topology = null;
        for (JsonNode t : getJson("/api/v1/topology/summary").get("topologies")) {
            if (NAME.equals(t.get("name").asText())) {
                topology = t;
            }
        }
        assertTrue(topology != null, "submitted topology is listed");
        assertEquals("ACTIVE", topology.get("status").asText());
        String id = topology.get("id").asText();
        assertTrue(id.startsWith(NAME + "-"), id);

        // Executors report statistics through heartbeats: wait until the bolt has executed tuples.
        JsonNode page = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            page = getJson("/api/v1/topology/" + id + "/component/count?window=600");
            JsonNode execs = page.get("executorStats");
            if (execs.size() == 2 && execs.get(0).get("executed").asLong() + execs.get(1).get("executed").asLong() > 0) {
                break;
            }
            Thread.sleep(1000);
        }
        assertEquals("bolt", page.get("componentType").asText());
        assertEquals(2, page.get("executors").asInt());
        assertEquals(NAME, page.get("name").asText());
        JsonNode execs = page.get("executorStats");
        assertEquals(2, execs.size());
        long executed = 0;
        for (JsonNode e : execs) {
            assertTrue(e.get("id").asText().matches("\\[\\d+-\\d+]"), e.toString());
            assertFalse(e.get("host").asText().isEmpty());
            assertTrue(e.get("port").asInt() > 0);
            assertTrue(e.get("capacity").asText().matches("\\d+\\.\\d{3}"), e.toString());
            executed += e.get("executed").asLong();
        }
        assertTrue(executed > 0, "bolt executed tuples: " + execs);
        assertEquals("words", page.get("inputStats").get(0).get("component").asText());

        JsonNode spout = getJson("/api/v1/topology/" + id + "/component/words");
        assertEquals("spout", spout.get("componentType").asText());
        assertEquals(1, spout.get("executorStats").size());

        JsonNode topoPage = getJson("/api/v1/topology/" + id + "?window=600");
        assertEquals(1, topoPage.get("workersTotal").asInt());
        assertEquals(1, topoPage.get("spouts").size());
        assertEquals("count", topoPage.get("bolts").get(0).get("boltId").asText());
        JsonNode workers = getJson("/api/v1/topology-workers/" + id).get("hostPortList");
        assertEquals(1, workers.size());

        assertEquals(404, send("GET", "/api/v1/topology/" + id + "/component/nosuch").statusCode());
        assertEquals(404, send("GET", "/api/v1/topology/nosuch-1-1").statusCode());
        assertEquals(400, send("GET", "/api/v1/topology/" + id + "?window=7").statusCode());

        JsonNode cluster = getJson("/api/v1/cluster/summary");
        assertEquals(1, cluster.get("supervisors").asInt());
        assertEquals(2, cluster.get("slotsTotal").asInt());
        assertEquals(1, cluster.get("topologies").asInt());

        HttpResponse<String> deactivate = send("POST", "/api/v1/topology/" + id + "/deactivate");
        assertEquals("success", JSON.readTree(deactivate.body()).get("status").asText(), deactivate.body());
        assertEquals("INACTIVE", getJson("/api/v1/topology/" + topologyId()).get("status").asText());
    }
}
