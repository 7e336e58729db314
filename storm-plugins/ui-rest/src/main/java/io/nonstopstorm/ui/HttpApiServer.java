package io.nonstopstorm.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves an {@link ApiRouter} over HTTP with the JDK's server: every request passes the {@link RequestGuard}
 * first; JSON bodies, JSONP only when the guard's settings enable it.
 */
public final class HttpApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int THREADS = 4;

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpApiServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Binds the guard's host on port (0 picks a free one) and starts serving. */
    public static HttpApiServer start(int port, ApiRouter router, RequestGuard guard) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(guard.settings().host(), port), 0);
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "ui-rest-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            if (PlacementPage.owns(exchange.getRequestURI().getRawPath())) {
                servePage(exchange);
            } else {
                serve(exchange, router, guard);
            }
        });
        server.start();
        return new HttpApiServer(server, executor);
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static void serve(HttpExchange exchange, ApiRouter router, RequestGuard guard) throws IOException {
        try (exchange) {
            Headers headers = exchange.getRequestHeaders();
            ApiRequest head = ApiRequest.of(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(), "");
            Optional<ApiResponse> refusal = guard.check(head.method(), headers::getFirst, head.query());
            ApiResponse resp;
            if (refusal.isPresent()) {
                resp = refusal.get();
            } else {
                byte[] body = readCapped(exchange.getRequestBody(), guard.settings().maxBodyBytes());
                resp = body == null ? guard.tooLarge()
                    : router.handle(new ApiRequest(head.method(), head.segments(), head.query(),
                        new String(body, StandardCharsets.UTF_8)));
            }
            respond(exchange, resp, refusal.isEmpty() ? head.query().get("callback") : null,
                guard.corsOrigin(headers.getFirst("Origin")));
        } catch (RuntimeException e) {
            // The router never throws; this guards the transport itself so one bad exchange cannot kill a thread.
            LOG.warn("Failed to answer {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
        }
    }

    /** The placement page's files: GET only and never a request body, so the guard has nothing to check. */
    private static void servePage(HttpExchange exchange) throws IOException {
        try (exchange) {
            PlacementPage.Response resp = PlacementPage.respond(exchange.getRequestMethod(),
                exchange.getRequestURI().getRawPath());
            Headers out = exchange.getResponseHeaders();
            out.set("Content-Type", resp.contentType());
            resp.headers().forEach(out::set);
            exchange.sendResponseHeaders(resp.status(), resp.body().length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(resp.body());
            }
        } catch (RuntimeException e) {
            LOG.warn("Failed to answer {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
        }
    }

    /** The body, or null when it is longer than cap bytes: then no more than one byte past the cap is read. */
    private static byte[] readCapped(InputStream in, int cap) throws IOException {
        try (in) {
            byte[] body = in.readNBytes(cap + 1);
            return body.length > cap ? null : body;
        }
    }

    private static void respond(HttpExchange exchange, ApiResponse resp, String callback, String corsOrigin)
        throws IOException {
        String json = serialize(resp);
        String text = callback == null ? json : callback + "(" + json + ");";
        Headers out = exchange.getResponseHeaders();
        out.set("Content-Type", (callback == null ? "application/json" : "application/javascript") + ";charset=utf-8");
        out.set("Cache-Control", "no-cache");
        // Browsers must not sniff a JSON reply into a script another page could include.
        out.set("X-Content-Type-Options", "nosniff");
        out.set("Vary", "Origin");
        if (corsOrigin != null) {
            out.set("Access-Control-Allow-Origin", corsOrigin);
        }
        if (resp.status() == 401) {
            out.set("WWW-Authenticate", "Bearer");
        }
        if (resp.status() == 413) {
            // The rest of the body stays unread: the connection cannot carry another request.
            out.set("Connection", "close");
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(resp.status(), bytes.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(bytes);
        }
    }

    private static String serialize(ApiResponse resp) {
        try {
            return JSON.writeValueAsString(resp.body());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("response body is not serialisable", e);
        }
    }
}
