package io.nonstopstorm.ui;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.storm.DaemonConfig;
import org.apache.storm.utils.ObjectReader;

/**
 * Who may reach the UI REST server and what it accepts, read once from the Storm config. Secure by default:
 * loopback only, state-changing requests need a bearer token, no JSONP, no foreign origins, bounded bodies.
 *
 * @param host           address to listen on: "ui.host", loopback when unset
 * @param token          "nonstop.ui.token", null when unset; state-changing requests are refused without one
 * @param allowedOrigins "nonstop.ui.allowed.origins": origins besides the server's own that may send
 *                       state-changing requests and read GET replies cross-origin (lower case, no trailing "/")
 * @param jsonpEnabled   "nonstop.ui.jsonp.enabled": wrap replies in a "callback" parameter's function
 * @param maxBodyBytes   "nonstop.ui.max.body.bytes": larger request bodies are refused with 413
 */
public record AccessSettings(String host, String token, List<String> allowedOrigins, boolean jsonpEnabled,
                             int maxBodyBytes) {

    public static final String TOKEN = "nonstop.ui.token";
    public static final String ALLOWED_ORIGINS = "nonstop.ui.allowed.origins";
    public static final String JSONP_ENABLED = "nonstop.ui.jsonp.enabled";
    public static final String MAX_BODY_BYTES = "nonstop.ui.max.body.bytes";
    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_MAX_BODY_BYTES = 65536;
    /** Shorter tokens could be guessed by a patient caller; 16 characters is the floor the docs promise. */
    static final int MIN_TOKEN_CHARS = 16;

    public AccessSettings {
        allowedOrigins = allowedOrigins.stream().map(AccessSettings::normalizeOrigin).toList();
    }

    /** Loopback, no token, nothing cross-origin, no JSONP, the default body cap: the settings of an empty config. */
    public static AccessSettings loopbackDefaults() {
        return new AccessSettings(DEFAULT_HOST, null, List.of(), false, DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * Reads the settings from a Storm config (defaults.yaml merged with storm.yaml).
     *
     * @param defaults Storm's defaults.yaml: its ui.host (0.0.0.0) counts as unset, so this server never listens
     *                 beyond loopback by accident
     * @throws IllegalArgumentException naming the key to set when the settings would expose the server
     */
    public static AccessSettings fromConfig(Map<String, Object> conf, Map<String, Object> defaults) {
        String host = bindHost(conf, defaults);
        String token = token(conf.get(TOKEN));
        if (token == null && !isLoopback(host)) {
            throw new IllegalArgumentException("ui.host " + host + " is not a loopback address: set " + TOKEN
                + " (at least " + MIN_TOKEN_CHARS + " characters) in storm.yaml, or bind ui.host to 127.0.0.1");
        }
        return new AccessSettings(host, token, origins(conf.get(ALLOWED_ORIGINS)),
            ObjectReader.getBoolean(conf.get(JSONP_ENABLED), false), maxBodyBytes(conf.get(MAX_BODY_BYTES)));
    }

    /** ui.host when storm.yaml (or the command line) sets it to something other than Storm's default, else loopback. */
    static String bindHost(Map<String, Object> conf, Map<String, Object> defaults) {
        Object host = conf.get(DaemonConfig.UI_HOST);
        if (host == null || String.valueOf(host).isBlank() || Objects.equals(host, defaults.get(DaemonConfig.UI_HOST))) {
            return DEFAULT_HOST;
        }
        return String.valueOf(host).trim();
    }

    /** Origins compare as browsers send them: scheme://host[:port], no path, no trailing slash. */
    static String normalizeOrigin(String origin) {
        String o = origin.trim().toLowerCase(Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }

    private static String token(Object raw) {
        if (raw == null || String.valueOf(raw).isBlank()) {
            return null;
        }
        if (!(raw instanceof String s)) {
            throw new IllegalArgumentException(TOKEN + " must be a string, got " + raw.getClass().getSimpleName());
        }
        if (s.length() < MIN_TOKEN_CHARS) {
            throw new IllegalArgumentException(TOKEN + " must have at least " + MIN_TOKEN_CHARS
                + " characters (it has " + s.length() + "): set a longer random token in storm.yaml");
        }
        return s;
    }

    private static List<String> origins(Object raw) {
        if (raw == null) {
            return List.of();
        }
        List<?> items = raw instanceof List<?> list ? list : List.of(raw);
        List<String> origins = new ArrayList<>();
        for (Object item : items) {
            String origin = String.valueOf(item).trim();
            // "*" would hand every web page the operator opens the power to act on the cluster.
            if (!origin.matches("https?://[^/\\s*]+/?")) {
                throw new IllegalArgumentException(ALLOWED_ORIGINS + " entries must be origins like "
                    + "https://dashboard.example:8443, got '" + origin + "'");
            }
            origins.add(origin);
        }
        return origins;
    }

    private static int maxBodyBytes(Object raw) {
        if (raw == null) {
            return DEFAULT_MAX_BODY_BYTES;
        }
        int bytes;
        try {
            bytes = ObjectReader.getInt(raw);
        } catch (IllegalArgumentException e) {
            bytes = -1;
        }
        if (bytes <= 0) {
            throw new IllegalArgumentException(MAX_BODY_BYTES + " must be a positive number of bytes, got '" + raw + "'");
        }
        return bytes;
    }

    private static boolean isLoopback(String host) {
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            for (InetAddress a : all) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return all.length > 0;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("ui.host " + host + " does not resolve: set ui.host to an address "
                + "of this machine", e);
        }
    }
}
