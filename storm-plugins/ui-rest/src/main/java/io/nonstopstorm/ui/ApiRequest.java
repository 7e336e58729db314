package io.nonstopstorm.ui;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP request as the router sees it.
 *
 * @param method   upper-case HTTP method
 * @param segments decoded path segments ("/api/v1/topology/t-1" gives [api, v1, topology, t-1])
 * @param query    decoded query parameters (the first value of a repeated name wins)
 * @param body     request body, empty when there is none
 */
public record ApiRequest(String method, List<String> segments, Map<String, String> query, String body) {

    public ApiRequest {
        segments = List.copyOf(segments);
        query = Map.copyOf(query);
        body = body == null ? "" : body;
    }

    /** Builds a request from the raw (still percent-encoded) path and query string. */
    public static ApiRequest of(String method, String rawPath, String rawQuery, String body) {
        List<String> segments = new ArrayList<>();
        for (String s : rawPath.split("/")) {
            if (!s.isEmpty()) {
                segments.add(decodePathSegment(s));
            }
        }
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decodeQueryPart(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decodeQueryPart(pair.substring(eq + 1));
                query.putIfAbsent(name, value);
            }
        }
        return new ApiRequest(method.toUpperCase(Locale.ROOT), segments, query, body);
    }

    /** Convenience for a path with an optional "?query" part. */
    public static ApiRequest of(String method, String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        return q < 0 ? of(method, pathAndQuery, null, "")
            : of(method, pathAndQuery.substring(0, q), pathAndQuery.substring(q + 1), "");
    }

    public String path() {
        return "/" + String.join("/", segments);
    }

    // In a path '+' is a literal plus; only the query uses '+' for a space.
    private static String decodePathSegment(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String decodeQueryPart(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
