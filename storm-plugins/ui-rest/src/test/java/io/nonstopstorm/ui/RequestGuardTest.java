package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequestGuardTest {

    private static final String TOKEN = "s3cret-token-0123456789";
    private static final String HOST = "127.0.0.1:8080";
    private final RequestGuard guard = new RequestGuard(
        new AccessSettings("127.0.0.1", TOKEN, List.of("https://dash.example"), false, 100));

    /** Headers by case-insensitive name, as the JDK server looks them up; "Host" is set as every client does. */
    private static Map<String, String> headers(String... nameValues) {
        Map<String, String> h = new HashMap<>();
        h.put("host", HOST);
        for (int i = 0; i < nameValues.length; i += 2) {
            h.put(nameValues[i].toLowerCase(Locale.ROOT), nameValues[i + 1]);
        }
        return h;
    }

    private static Optional<ApiResponse> check(RequestGuard g, String method, Map<String, String> headers,
                                               Map<String, String> query) {
        return g.check(method, name -> headers.get(name.toLowerCase(Locale.ROOT)), query);
    }

    private Optional<ApiResponse> check(String method, Map<String, String> headers) {
        return check(guard, method, headers, Map.of());
    }

    @SuppressWarnings("unchecked")
    private static void assertRefused(int status, String messagePart, Optional<ApiResponse> refusal) {
        assertTrue(refusal.isPresent(), "expected a refusal with " + status);
        assertEquals(status, refusal.get().status());
        Map<String, Object> body = (Map<String, Object>) refusal.get().body();
        assertEquals(status + " " + ApiResponse.reason(status), body.get("error"));
        String message = (String) body.get("errorMessage");
        assertTrue(message.contains(messagePart), message);
    }

    @Test
    void getsNeedNoToken() {
        assertEquals(Optional.empty(), check("GET", headers()));
        assertEquals(Optional.empty(), check("get", headers("Origin", "http://evil.example")));
    }

    @Test
    void stateChangingRequestsNeedTheBearerToken() {
        assertRefused(401, "Authorization: Bearer", check("POST", headers()));
        assertRefused(401, "Authorization: Bearer", check("POST", headers("Authorization", "Basic " + TOKEN)));
        assertRefused(403, "not this server's nonstop.ui.token", check("POST", headers("Authorization", "Bearer wrong")));
        assertRefused(403, "not this server's", check("POST", headers("Authorization", "Bearer " + TOKEN + "x")));
        assertRefused(403, "not this server's", check("POST", headers("Authorization", "Bearer ")));
        assertEquals(Optional.empty(), check("POST", headers("Authorization", "Bearer " + TOKEN)));
        assertEquals(Optional.empty(), check("POST", headers("Authorization", "bearer  " + TOKEN)));
        // Not only POST: every method but GET may change something.
        for (String method : List.of("PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")) {
            assertRefused(401, "Authorization", check(method, headers()));
        }
    }

    @Test
    void withoutAConfiguredTokenStateChangingRequestsAreRefused() {
        RequestGuard open = new RequestGuard(AccessSettings.loopbackDefaults());
        assertRefused(403, "set nonstop.ui.token", check(open, "POST", headers(), Map.of()));
        assertRefused(403, "set nonstop.ui.token", check(open, "POST", headers("Authorization", "Bearer anything"), Map.of()));
        assertEquals(Optional.empty(), check(open, "GET", headers(), Map.of()));
    }

    @Test
    void foreignOriginsMayNotChangeStateEvenWithTheToken() {
        String auth = "Bearer " + TOKEN;
        assertRefused(403, "origin http://evil.example", check("POST", headers("Authorization", auth, "Origin", "http://evil.example")));
        assertRefused(403, "origin null", check("POST", headers("Authorization", auth, "Origin", "null")));
        // Same host, other port or scheme: another origin.
        assertRefused(403, "origin", check("POST", headers("Authorization", auth, "Origin", "http://127.0.0.1:9999")));
        assertRefused(403, "origin", check("POST", headers("Authorization", auth, "Origin", "https://127.0.0.1:8080")));
        assertRefused(403, "origin", check("POST", headers("Authorization", auth, "Origin", "http://evil.example", "Host", null)));
        // The server's own origin, as the browser addressed it, and an allowed one pass.
        assertEquals(Optional.empty(), check("POST", headers("Authorization", auth, "Origin", "http://127.0.0.1:8080")));
        assertEquals(Optional.empty(), check("POST", headers("Authorization", auth, "Origin", "HTTPS://dash.example/")));
        // A foreign origin without the token is refused as well (either reason suffices).
        assertRefused(403, "origin", check("POST", headers("Origin", "http://evil.example")));
    }

    @Test
    void corsIsGrantedToAllowedOriginsOnly() {
        assertEquals("https://dash.example", guard.corsOrigin("https://dash.example"));
        assertNull(guard.corsOrigin("http://evil.example"));
        assertNull(guard.corsOrigin("http://127.0.0.1:8080"));
        assertNull(guard.corsOrigin(null));
    }

    @Test
    void jsonpIsRefusedUnlessEnabled() {
        assertRefused(400, "JSONP is disabled", check(guard, "GET", headers(), Map.of("callback", "cb")));
        assertRefused(400, "JSONP is disabled", check(guard, "GET", headers(), Map.of("callback", "")));
        RequestGuard jsonp = new RequestGuard(new AccessSettings("127.0.0.1", null, List.of(), true, 100));
        assertEquals(Optional.empty(), check(jsonp, "GET", headers(), Map.of("callback", "ns.cb_1")));
        assertRefused(400, "JavaScript identifier", check(jsonp, "GET", headers(), Map.of("callback", "alert(1)")));
    }

    @Test
    void declaredBodiesOverTheCapAreRefusedBeforeAnythingElse() {
        assertRefused(413, "exceeds 100 bytes (nonstop.ui.max.body.bytes)", check("POST", headers("Content-Length", "101")));
        assertRefused(413, "exceeds 100 bytes", check("GET", headers("Content-Length", "101")));
        assertEquals(Optional.empty(), check("POST", headers("Content-Length", "100", "Authorization", "Bearer " + TOKEN)));
        assertRefused(400, "Content-Length", check("POST", headers("Content-Length", "lots")));
        assertRefused(413, "exceeds 100 bytes", Optional.of(guard.tooLarge()));
    }
}
