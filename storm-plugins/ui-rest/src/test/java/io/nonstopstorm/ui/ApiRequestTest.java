package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiRequestTest {

    @Test
    void decodesPathSegmentsAndQuery() {
        ApiRequest r = ApiRequest.of("get", "/api/v1/topology/wc-1-2/component/my%20bolt+x", "window=600&sys=1&x&window=86400", "");
        assertEquals("GET", r.method());
        assertEquals(List.of("api", "v1", "topology", "wc-1-2", "component", "my bolt+x"), r.segments());
        assertEquals(Map.of("window", "600", "sys", "1", "x", ""), r.query());
    }

    @Test
    void emptySegmentsAreIgnored() {
        assertEquals(List.of("api", "v1", "cluster", "summary"), ApiRequest.of("GET", "//api/v1/cluster/summary/").segments());
    }
}
