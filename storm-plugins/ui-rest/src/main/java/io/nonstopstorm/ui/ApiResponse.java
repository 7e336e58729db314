package io.nonstopstorm.ui;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A response before serialisation: HTTP status and a JSON-ready body.
 *
 * @param status HTTP status code
 * @param body   maps, lists, strings, numbers, booleans or null
 */
public record ApiResponse(int status, Object body) {

    public static ApiResponse ok(Object body) {
        return new ApiResponse(200, body);
    }

    /** Storm's error shape: {"error": "404 Not Found", "errorMessage": "..."}. */
    public static ApiResponse error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", status + " " + reason(status));
        body.put("errorMessage", message);
        return new ApiResponse(status, body);
    }

    static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 413 -> "Content Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Error";
        };
    }
}
