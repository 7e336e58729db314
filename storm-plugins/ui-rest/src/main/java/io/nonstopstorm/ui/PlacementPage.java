package io.nonstopstorm.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The placement page under {@code /nonstop/}: a fixed set of files from this jar's resources, looked up by
 * exact raw path, so no request can name any other file. Read-only: GET alone is allowed. Every answer carries
 * the headers of {@link #SECURITY_HEADERS}; the page's script and style are separate files so the policy can
 * forbid inline code. Pure apart from reading the resources once.
 */
public final class PlacementPage {

    public static final String ROOT = "/nonstop";
    /** The page's own files (scripts, styles, the data API) only; no framing by other sites. */
    public static final String CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    public static final Map<String, String> SECURITY_HEADERS = Map.of(
        "Content-Security-Policy", CSP,
        "X-Content-Type-Options", "nosniff",
        "Referrer-Policy", "no-referrer",
        "Cache-Control", "no-cache");

    private static final String RESOURCES = "/io/nonstopstorm/ui/page/";
    private static final Map<String, Asset> FILES = Map.of(
        ROOT + "/", asset("index.html", "text/html;charset=utf-8"),
        ROOT + "/placement.js", asset("placement.js", "text/javascript;charset=utf-8"),
        ROOT + "/placement.css", asset("placement.css", "text/css;charset=utf-8"));

    private record Asset(String contentType, byte[] body) {
    }

    /**
     * An answer before transport.
     *
     * @param status      HTTP status
     * @param contentType the body's media type
     * @param body        the bytes to send
     * @param headers     headers beyond the content type (security headers, Location, Allow)
     */
    public record Response(int status, String contentType, byte[] body, Map<String, String> headers) {
    }

    private PlacementPage() {
    }

    /** True when the raw request path belongs to the page (so the API router does not see it). */
    public static boolean owns(String rawPath) {
        return rawPath.equals(ROOT) || rawPath.startsWith(ROOT + "/");
    }

    /** The answer to method on rawPath (the path as sent, still percent-encoded). */
    public static Response respond(String method, String rawPath) {
        Map<String, String> headers = new LinkedHashMap<>(SECURITY_HEADERS);
        if (!"GET".equals(method.toUpperCase(Locale.ROOT))) {
            headers.put("Allow", "GET");
            return text(405, "The placement page is read-only: GET only.", headers);
        }
        if (rawPath.equals(ROOT)) {
            headers.put("Location", ROOT + "/");
            return text(301, "The placement page is at " + ROOT + "/", headers);
        }
        Asset asset = FILES.get(rawPath);
        if (asset == null) {
            return text(404, "No such file on the placement page.", headers);
        }
        return new Response(200, asset.contentType(), asset.body(), headers);
    }

    private static Response text(int status, String message, Map<String, String> headers) {
        return new Response(status, "text/plain;charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8),
            headers);
    }

    private static Asset asset(String name, String contentType) {
        try (InputStream in = PlacementPage.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks the page resource " + RESOURCES + name);
            }
            return new Asset(contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the page resource " + RESOURCES + name, e);
        }
    }
}
