package io.nonstopstorm.ui;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The checks every request passes before the router sees it: body size, JSONP, and for state-changing requests
 * (every method but GET) the origin and the bearer token. A pure function of the request's method, headers and
 * query plus {@link AccessSettings}; refusals use the router's error shape.
 */
public final class RequestGuard {

    /** A JSONP callback must be a plain (dotted) identifier: anything else would let a caller inject script. */
    private static final Pattern CALLBACK = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$.]{0,99}");
    private static final String BEARER = "bearer ";

    private final AccessSettings settings;
    private final byte[] tokenDigest;

    public RequestGuard(AccessSettings settings) {
        this.settings = settings;
        this.tokenDigest = settings.token() == null ? null : sha256(settings.token());
    }

    public AccessSettings settings() {
        return settings;
    }

    /**
     * The refusal for a request, or empty when it may proceed to the router.
     *
     * @param method HTTP method, any case
     * @param header a request header's first value by name (case-insensitive), null when absent
     * @param query  decoded query parameters
     */
    public Optional<ApiResponse> check(String method, Function<String, String> header, Map<String, String> query) {
        String length = header.apply("Content-Length");
        if (length != null) {
            long declared;
            try {
                declared = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                return refuse(400, "Content-Length must be a number of bytes, got '" + length + "'");
            }
            if (declared > settings.maxBodyBytes()) {
                return Optional.of(tooLarge());
            }
        }
        String callback = query.get("callback");
        if (callback != null) {
            if (!settings.jsonpEnabled()) {
                return refuse(400, "JSONP is disabled on this server (" + AccessSettings.JSONP_ENABLED
                    + "); request the JSON without a 'callback' parameter");
            }
            if (!CALLBACK.matcher(callback).matches()) {
                return refuse(400, "callback must be a JavaScript identifier");
            }
        }
        if ("GET".equals(method.toUpperCase(Locale.ROOT))) {
            return Optional.empty();
        }
        String origin = header.apply("Origin");
        if (origin != null && !mayAct(origin, header.apply("Host"))) {
            return refuse(403, "origin " + origin + " may not change this cluster: it is not this server's own "
                + "origin nor listed in " + AccessSettings.ALLOWED_ORIGINS);
        }
        if (tokenDigest == null) {
            return refuse(403, "state-changing requests are disabled: set " + AccessSettings.TOKEN
                + " in the UI server's storm.yaml and send it as 'Authorization: Bearer <token>'");
        }
        String authorization = header.apply("Authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return refuse(401, "state-changing requests need the header 'Authorization: Bearer <token>' with "
                + AccessSettings.TOKEN);
        }
        // Comparing digests takes the same time whatever the given token's length or content.
        byte[] given = sha256(authorization.substring(BEARER.length()).trim());
        if (!MessageDigest.isEqual(given, tokenDigest)) {
            return refuse(403, "the bearer token is not this server's " + AccessSettings.TOKEN);
        }
        return Optional.empty();
    }

    /** The refusal of a body over the cap, also for bodies that declare no length and turn out too long. */
    public ApiResponse tooLarge() {
        return ApiResponse.error(413, "request body exceeds " + settings.maxBodyBytes() + " bytes ("
            + AccessSettings.MAX_BODY_BYTES + ")");
    }

    /**
     * The origin a browser may let read the reply of a cross-origin request, or null for none. Only origins the
     * operator allowed get one; a same-origin request needs none.
     */
    public String corsOrigin(String origin) {
        return origin != null && settings.allowedOrigins().contains(AccessSettings.normalizeOrigin(origin))
            ? origin : null;
    }

    /** The server's own origin (as the browser addressed it, per Host) or one the operator allowed. */
    private boolean mayAct(String origin, String host) {
        String o = AccessSettings.normalizeOrigin(origin);
        return host != null && o.equals("http://" + host.trim().toLowerCase(Locale.ROOT))
            || settings.allowedOrigins().contains(o);
    }

    private static Optional<ApiResponse> refuse(int status, String message) {
        return Optional.of(ApiResponse.error(status, message));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
