package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccessSettingsTest {

    private static final Map<String, Object> DEFAULTS = Map.of("ui.host", "0.0.0.0");
    private static final String TOKEN = "0123456789abcdef";

    @Test
    void anEmptyConfigIsLoopbackWithoutTokenJsonpOrForeignOrigins() {
        AccessSettings s = AccessSettings.fromConfig(Map.of(), DEFAULTS);
        assertEquals(AccessSettings.loopbackDefaults(), s);
        assertEquals("127.0.0.1", s.host());
        assertNull(s.token());
        assertEquals(List.of(), s.allowedOrigins());
        assertFalse(s.jsonpEnabled());
        assertEquals(65536, s.maxBodyBytes());
    }

    @Test
    void bindsLoopbackUnlessUiHostIsConfigured() {
        assertEquals("127.0.0.1", AccessSettings.bindHost(Map.of(), DEFAULTS));
        assertEquals("127.0.0.1", AccessSettings.bindHost(Map.of("ui.host", "0.0.0.0"), DEFAULTS));
        assertEquals("127.0.0.5", AccessSettings.bindHost(Map.of("ui.host", "127.0.0.5"), DEFAULTS));
    }

    @Test
    void aNonLoopbackHostNeedsAToken() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> AccessSettings.fromConfig(Map.of("ui.host", "192.0.2.10"), DEFAULTS));
        assertTrue(e.getMessage().contains("set nonstop.ui.token"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> AccessSettings.fromConfig(Map.of("ui.host", "::"), DEFAULTS));
        AccessSettings s = AccessSettings.fromConfig(Map.of("ui.host", "192.0.2.10", "nonstop.ui.token", TOKEN), DEFAULTS);
        assertEquals("192.0.2.10", s.host());
        assertEquals(TOKEN, s.token());
        // Loopback needs none: state-changing requests are then refused, reads stay open.
        assertNull(AccessSettings.fromConfig(Map.of("ui.host", "localhost"), DEFAULTS).token());
    }

    @Test
    void aShortOrNonTextTokenIsRefusedAnywhere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> AccessSettings.fromConfig(Map.of("ui.host", "192.0.2.10", "nonstop.ui.token", "short"), DEFAULTS));
        assertTrue(e.getMessage().contains("at least 16 characters"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> AccessSettings.fromConfig(Map.of("nonstop.ui.token", "0123456789abcde"), DEFAULTS));
        assertThrows(IllegalArgumentException.class,
            () -> AccessSettings.fromConfig(Map.of("nonstop.ui.token", 1234567890123456789L), DEFAULTS));
        assertNull(AccessSettings.fromConfig(Map.of("nonstop.ui.token", "  "), DEFAULTS).token());
    }

    @Test
    void readsOriginsJsonpAndBodyCap() {
        AccessSettings s = AccessSettings.fromConfig(Map.of(
            "nonstop.ui.allowed.origins", List.of("https://Dash.example:8443/", "http://10.0.0.5:3000"),
            "nonstop.ui.jsonp.enabled", true,
            "nonstop.ui.max.body.bytes", 1024), DEFAULTS);
        assertEquals(List.of("https://dash.example:8443", "http://10.0.0.5:3000"), s.allowedOrigins());
        assertTrue(s.jsonpEnabled());
        assertEquals(1024, s.maxBodyBytes());
        assertEquals(List.of("http://a.example"),
            AccessSettings.fromConfig(Map.of("nonstop.ui.allowed.origins", "http://a.example"), DEFAULTS).allowedOrigins());
    }

    @Test
    void refusesWildcardOriginsAndBadBodyCaps() {
        for (Object origins : List.of("*", List.of("http://a.example/path"), List.of("dash.example"))) {
            assertThrows(IllegalArgumentException.class,
                () -> AccessSettings.fromConfig(Map.of("nonstop.ui.allowed.origins", origins), DEFAULTS), origins::toString);
        }
        for (Object cap : List.of(0, -5, "lots", 1.5)) {
            assertThrows(IllegalArgumentException.class,
                () -> AccessSettings.fromConfig(Map.of("nonstop.ui.max.body.bytes", cap), DEFAULTS), cap::toString);
        }
    }
}
