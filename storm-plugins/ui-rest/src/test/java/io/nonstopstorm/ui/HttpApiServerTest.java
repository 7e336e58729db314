package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpApiServerTest {

    private final FakeNimbus nimbus = new FakeNimbus().withTopology("wc-1-100", "wc", List.of("words"), List.of("split"));
    private final HttpClient http = HttpClient.newHttpClient();
    private HttpApiServer server;
    private String base;

    @BeforeEach
    void start() throws Exception {
        server = HttpApiServer.start("127.0.0.1", 0,
            new ApiRouter(nimbus, UiSettings.defaults("2.8.3"), Clock.systemUTC()));
        base = "http://127.0.0.1:" + server.address().getPort();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + path))
            .method(method, HttpRequest.BodyPublishers.noBody()).build();
        return http.send(req, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesJsonWithTheRoutersStatus() throws Exception {
        HttpResponse<String> ok = send("GET", "/api/v1/topology/wc-1-100?window=600");
        assertEquals(200, ok.statusCode());
        assertTrue(ok.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonNode page = new ObjectMapper().readTree(ok.body());
        assertEquals("wc", page.get("name").asText());

        HttpResponse<String> missing = send("GET", "/api/v1/topology/gone-1-1");
        assertEquals(404, missing.statusCode());
        assertEquals("404 Not Found", new ObjectMapper().readTree(missing.body()).get("error").asText());

        HttpResponse<String> kill = send("POST", "/api/v1/topology/wc-1-100/kill/0");
        assertEquals("success", new ObjectMapper().readTree(kill.body()).get("status").asText());
    }

    @Test
    void decodesEncodedComponentIds() throws Exception {
        nimbus.withTopology("odd-1-1", "odd", List.of("my spout"), List.of());
        assertEquals(200, send("GET", "/api/v1/topology/odd-1-1/component/my%20spout").statusCode());
        assertEquals("componentPage odd-1-1 my spout :all-time false", nimbus.calls.get(nimbus.calls.size() - 1));
    }

    @Test
    void wrapsJsonpCallbacksAndRejectsUnsafeOnes() throws Exception {
        HttpResponse<String> wrapped = send("GET", "/api/v1/cluster/configuration?callback=cb");
        assertEquals("cb({\"nimbus.thrift.port\":6627});", wrapped.body());
        assertEquals(400, send("GET", "/api/v1/cluster/configuration?callback=alert(1)").statusCode());
    }
}
