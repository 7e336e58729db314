package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class UiRestServerTest {

    private static final Map<String, Object> DEFAULTS = Map.of("ui.host", "0.0.0.0");

    @Test
    void bindsLoopbackUnlessUiHostIsConfigured() {
        assertEquals("127.0.0.1", UiRestServer.bindHost(Map.of(), DEFAULTS));
        assertEquals("127.0.0.1", UiRestServer.bindHost(Map.of("ui.host", "0.0.0.0"), DEFAULTS));
        assertEquals("127.0.0.5", UiRestServer.bindHost(Map.of("ui.host", "127.0.0.5"), DEFAULTS));
    }
}
