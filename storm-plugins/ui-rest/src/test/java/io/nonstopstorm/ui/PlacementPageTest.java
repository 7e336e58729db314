package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PlacementPageTest {

    private static String text(PlacementPage.Response r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void servesThePageItsScriptAndItsStyleWithTheirTypes() {
        PlacementPage.Response html = PlacementPage.respond("GET", "/nonstop/");
        assertEquals(200, html.status());
        assertEquals("text/html;charset=utf-8", html.contentType());
        assertTrue(text(html).contains("<script src=\"placement.js\""));
        assertEquals("text/javascript;charset=utf-8", PlacementPage.respond("GET", "/nonstop/placement.js").contentType());
        assertEquals("text/css;charset=utf-8", PlacementPage.respond("GET", "/nonstop/placement.css").contentType());
    }

    @Test
    void everyAnswerForbidsForeignAndInlineCodeAndSniffing() {
        for (PlacementPage.Response r : List.of(PlacementPage.respond("GET", "/nonstop/"),
            PlacementPage.respond("GET", "/nonstop/nope.js"), PlacementPage.respond("POST", "/nonstop/"))) {
            assertTrue(r.headers().get("Content-Security-Policy").startsWith("default-src 'self'"));
            assertEquals("nosniff", r.headers().get("X-Content-Type-Options"));
        }
    }

    @Test
    void thePageHasNoInlineCodeTheCspWouldBlock() {
        String html = text(PlacementPage.respond("GET", "/nonstop/"));
        assertFalse(Pattern.compile("<script(?![^>]*\\bsrc=)").matcher(html).find(), "inline script");
        assertFalse(html.contains("<style") || html.contains(" style=") || Pattern.compile(" on[a-z]+=").matcher(html).find());
    }

    @Test
    void theScriptNeverTurnsDataIntoMarkup() {
        String js = text(PlacementPage.respond("GET", "/nonstop/placement.js"));
        for (String sink : List.of("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
            "new Function")) {
            assertFalse(js.contains(sink), sink);
        }
        assertTrue(js.contains("textContent"));
    }

    @Test
    void onlyItsOwnFilesAreServed() {
        for (String path : List.of("/nonstop/index.html.bak", "/nonstop/../../etc/passwd", "/nonstop/%2e%2e/%2e%2e/etc/passwd",
            "/nonstop/..%2f..%2fetc%2fpasswd", "/nonstop//placement.js", "/nonstop/page/placement.js",
            "/nonstop/io/nonstopstorm/ui/page/index.html", "/nonstop/PLACEMENT.JS")) {
            PlacementPage.Response r = PlacementPage.respond("GET", path);
            assertEquals(404, r.status(), path);
            assertEquals("text/plain;charset=utf-8", r.contentType());
            assertFalse(text(r).contains("root:"), path);
        }
    }

    @Test
    void theBarePathRedirectsAndOtherMethodsAreRefused() {
        PlacementPage.Response bare = PlacementPage.respond("GET", "/nonstop");
        assertEquals(301, bare.status());
        assertEquals("/nonstop/", bare.headers().get("Location"));
        for (String method : List.of("POST", "PUT", "DELETE", "HEAD")) {
            PlacementPage.Response r = PlacementPage.respond(method, "/nonstop/");
            assertEquals(405, r.status(), method);
            assertEquals("GET", r.headers().get("Allow"));
        }
    }

    @Test
    void ownsItsPathsOnly() {
        assertTrue(PlacementPage.owns("/nonstop"));
        assertTrue(PlacementPage.owns("/nonstop/../x"));
        assertFalse(PlacementPage.owns("/nonstopx"));
        assertFalse(PlacementPage.owns("/api/v1/nonstop/placement"));
    }
}
