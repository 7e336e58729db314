package io.nonstopstorm.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Serves an {@link ApiRouter} over HTTP with the JDK's server; JSON bodies, optional JSONP "callback". */
public final class HttpApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A JSONP callback must be a plain (dotted) identifier: anything else would let a caller inject script. */
    private static final Pattern CALLBACK = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$.]{0,99}");
    private static final int THREADS = 4;

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpApiServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Binds host:port (port 0 picks a free one) and starts serving. */
    public static HttpApiServer start(String host, int port, ApiRouter router) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "ui-rest-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", exchange -> serve(exchange, router));
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

    private static void serve(HttpExchange exchange, ApiRouter router) throws IOException {
        try (exchange) {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            ApiRequest req = ApiRequest.of(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(), body);
            ApiResponse resp = router.handle(req);
            String callback = req.query().get("callback");
            if (callback != null && !CALLBACK.matcher(callback).matches()) {
                resp = ApiResponse.error(400, "callback must be a JavaScript identifier");
                callback = null;
            }
            String json = serialize(resp);
            String text = callback == null ? json : callback + "(" + json + ");";
            exchange.getResponseHeaders().set("Content-Type",
                (callback == null ? "application/json" : "application/javascript") + ";charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(resp.status(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (RuntimeException e) {
            // The router never throws; this guards the transport itself so one bad exchange cannot kill a thread.
            LOG.warn("Failed to answer {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
        }
    }

    private static String serialize(ApiResponse resp) {
        if (resp.body() instanceof ApiResponse.RawJson raw) {
            return raw.json();
        }
        try {
            return JSON.writeValueAsString(resp.body());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("response body is not serialisable", e);
        }
    }
}
