package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpApiServerTest {

    private static final String TOKEN = "http-api-server-test-token";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FakeNimbus nimbus = new FakeNimbus().withTopology("wc-1-100", "wc", List.of("words"), List.of("split"));
    private final HttpClient http = HttpClient.newHttpClient();
    private HttpApiServer server;
    private String base;

    @BeforeEach
    void start() throws Exception {
        start(new AccessSettings("127.0.0.1", TOKEN, List.of("https://dash.example"), false, 1000));
    }

    private void start(AccessSettings access) throws Exception {
        if (server != null) {
            server.close();
        }
        server = HttpApiServer.start(0, new ApiRouter(nimbus, UiSettings.defaults("2.8.3"), Clock.systemUTC()),
            new RequestGuard(access));
        base = "http://127.0.0.1:" + server.address().getPort();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        return send(method, path, HttpRequest.BodyPublishers.noBody(), headers);
    }

    private HttpResponse<String> send(String method, String path, HttpRequest.BodyPublisher body, String... headers)
        throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + path)).method(method, body);
        if (headers.length > 0) {
            req.headers(headers);
        }
        return http.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> resp) throws Exception {
        return JSON.readTree(resp.body());
    }

    private boolean killed() {
        return nimbus.calls.stream().anyMatch(c -> c.startsWith("kill"));
    }

    @Test
    void servesJsonWithTheRoutersStatus() throws Exception {
        HttpResponse<String> ok = send("GET", "/api/v1/topology/wc-1-100?window=600");
        assertEquals(200, ok.statusCode());
        assertTrue(ok.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        assertEquals("nosniff", ok.headers().firstValue("X-Content-Type-Options").orElse(""));
        assertEquals("wc", json(ok).get("name").asText());

        HttpResponse<String> missing = send("GET", "/api/v1/topology/gone-1-1");
        assertEquals(404, missing.statusCode());
        assertEquals("404 Not Found", json(missing).get("error").asText());

        HttpResponse<String> kill = send("POST", "/api/v1/topology/wc-1-100/kill/0", "Authorization", "Bearer " + TOKEN);
        assertEquals("success", json(kill).get("status").asText());
        assertTrue(killed());
    }

    @Test
    void stateChangingRequestsWithoutTheRightTokenChangeNothing() throws Exception {
        HttpResponse<String> none = send("POST", "/api/v1/topology/wc-1-100/kill/0");
        assertEquals(401, none.statusCode());
        assertEquals("401 Unauthorized", json(none).get("error").asText());
        assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElse(""));
        HttpResponse<String> wrong = send("POST", "/api/v1/topology/wc-1-100/kill/0", "Authorization", "Bearer nope");
        assertEquals(403, wrong.statusCode());
        assertTrue(json(wrong).get("errorMessage").asText().contains("nonstop.ui.token"));
        assertEquals(401, send("DELETE", "/api/v1/topology/wc-1-100").statusCode());
        assertFalse(killed());
    }

    @Test
    void withoutAConfiguredTokenPostsAreRefusedAndGetsServed() throws Exception {
        start(AccessSettings.loopbackDefaults());
        HttpResponse<String> kill = send("POST", "/api/v1/topology/wc-1-100/kill/0", "Authorization", "Bearer anything");
        assertEquals(403, kill.statusCode());
        assertTrue(json(kill).get("errorMessage").asText().contains("set nonstop.ui.token"));
        assertFalse(killed());
        assertEquals(200, send("GET", "/api/v1/topology/summary").statusCode());
    }

    @Test
    void foreignOriginsCannotActNorReadCrossOrigin() throws Exception {
        String auth = "Bearer " + TOKEN;
        HttpResponse<String> forged = send("POST", "/api/v1/topology/wc-1-100/kill/0",
            "Authorization", auth, "Origin", "http://evil.example");
        assertEquals(403, forged.statusCode());
        assertFalse(killed());
        HttpResponse<String> read = send("GET", "/api/v1/topology/summary", "Origin", "http://evil.example");
        assertTrue(read.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
        HttpResponse<String> allowed = send("GET", "/api/v1/topology/summary", "Origin", "https://dash.example");
        assertEquals("https://dash.example", allowed.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        HttpResponse<String> own = send("POST", "/api/v1/topology/wc-1-100/kill/0", "Authorization", auth, "Origin", base);
        assertEquals(200, own.statusCode(), own.body());
    }

    @Test
    void jsonpIsOffByDefaultAndWrapsOnlyWhenEnabled() throws Exception {
        HttpResponse<String> refused = send("GET", "/api/v1/cluster/configuration?callback=cb");
        assertEquals(400, refused.statusCode());
        assertFalse(refused.body().contains("6627"), refused.body());
        assertTrue(refused.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));

        start(new AccessSettings("127.0.0.1", null, List.of(), true, 1000));
        HttpResponse<String> wrapped = send("GET", "/api/v1/cluster/configuration?callback=cb");
        assertEquals("cb({\"nimbus.thrift.port\":6627});", wrapped.body());
        assertEquals(400, send("GET", "/api/v1/cluster/configuration?callback=alert(1)").statusCode());
    }

    @Test
    void bodiesOverTheCapGet413() throws Exception {
        String auth = "Bearer " + TOKEN;
        String big = "{\"rebalanceOptions\":{\"numWorkers\":2}," + " ".repeat(1000) + "}";
        HttpResponse<String> declared = send("POST", "/api/v1/topology/wc-1-100/rebalance/0",
            HttpRequest.BodyPublishers.ofString(big), "Authorization", auth);
        assertEquals(413, declared.statusCode());
        assertEquals("413 Content Too Large", json(declared).get("error").asText());
        HttpResponse<String> fits = send("POST", "/api/v1/topology/wc-1-100/rebalance/0",
            HttpRequest.BodyPublishers.ofString("{\"rebalanceOptions\":{\"numWorkers\":2}}"), "Authorization", auth);
        assertEquals(200, fits.statusCode(), fits.body());
        assertEquals(1, nimbus.calls.stream().filter(c -> c.startsWith("rebalance")).count());
    }

    @Test
    void chunkedBodiesOverTheCapGet413() throws Exception {
        // A chunked body declares no length: the server finds out by reading, and stops after the cap.
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
            socket.setSoTimeout((int) Duration.ofSeconds(20).toMillis());
            String chunk = "x".repeat(1500);
            String request = "POST /api/v1/topology/wc-1-100/rebalance/0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer " + TOKEN + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n0\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String reply = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 413", reply);
        }
        assertEquals(0, nimbus.calls.stream().filter(c -> c.startsWith("rebalance")).count());
    }

    @Test
    void decodesEncodedComponentIds() throws Exception {
        nimbus.withTopology("odd-1-1", "odd", List.of("my spout"), List.of());
        assertEquals(200, send("GET", "/api/v1/topology/odd-1-1/component/my%20spout").statusCode());
        assertEquals("componentPage odd-1-1 my spout :all-time false", nimbus.calls.get(nimbus.calls.size() - 1));
    }

    @Test
    void servesThePlacementPageWithItsSecurityHeadersWithoutAToken() throws Exception {
        HttpResponse<String> page = send("GET", "/nonstop/");
        assertEquals(200, page.statusCode());
        assertEquals("text/html;charset=utf-8", page.headers().firstValue("Content-Type").orElse(""));
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").startsWith("default-src 'self'"));
        assertEquals("nosniff", page.headers().firstValue("X-Content-Type-Options").orElse(""));
        assertTrue(page.body().contains("placement.js"));
        HttpResponse<String> js = send("GET", "/nonstop/placement.js");
        assertEquals("text/javascript;charset=utf-8", js.headers().firstValue("Content-Type").orElse(""));
        assertEquals(404, send("GET", "/nonstop/missing.css").statusCode());
        assertEquals(405, send("POST", "/nonstop/", "Authorization", "Bearer " + TOKEN).statusCode());
        assertEquals(200, send("GET", "/api/v1/nonstop/placement").statusCode());
    }

    @Test
    void noPathLeavesThePlacementPagesFiles() throws Exception {
        for (String path : List.of("/nonstop/../../etc/passwd", "/nonstop/%2e%2e/%2e%2e/etc/passwd",
            "/nonstop/..%2f..%2f..%2fetc%2fpasswd")) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
                socket.setSoTimeout((int) Duration.ofSeconds(20).toMillis());
                // Raw, so no client normalises the dots away before the server sees them.
                socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
                String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(reply.startsWith("HTTP/1.1 404"), path + ": " + reply);
                assertFalse(reply.contains("root:"), path);
            }
        }
    }
}
