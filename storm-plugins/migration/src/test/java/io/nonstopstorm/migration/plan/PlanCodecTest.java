package io.nonstopstorm.migration.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PlanCodecTest {

    @Test
    void roundTrips() throws Exception {
        TreeSet<ExecutorId> execs = new TreeSet<>();
        execs.add(new ExecutorId(5, 6));
        execs.add(new ExecutorId(1, 1));
        NodePlan p = new NodePlan(7, 123, new TreeMap<>(Map.of(6701, new PortPlan("relay-1-2", execs),
                                                               6702, new PortPlan("other-3-4", new TreeSet<>()))),
                                  new TreeMap<>(Map.of("relay-1-2", "abcd")));
        String json = PlanCodec.encode(p);
        assertEquals(p, PlanCodec.decode(json));
        assertTrue(json.contains("\"6701\":{\"topology\":\"relay-1-2\",\"executors\":[[1,1],[5,6]]}"), json);
        assertTrue(json.length() < 512, "a node plan stays small: " + json.length());
    }

    @Test
    void rejectsMalformedPlansWithTheirLocation() {
        assertMessage("{\"format\":1,\"version\":1,\"ports\":{\"x\":{}}}", "ports.x: port is not a number");
        assertMessage("{\"format\":1,\"version\":1,\"ports\":{\"6701\":{\"executors\":[]}}}", "ports.6701.topology: missing");
        assertMessage("{\"format\":1,\"version\":1,\"ports\":{\"6701\":{\"topology\":\"t\",\"executors\":[[3]]}}}",
                      "expected [start,end]");
        assertMessage("{\"format\":1,\"version\":1,\"ports\":{\"6701\":{\"topology\":\"t\",\"executors\":[[3,1]]}}}",
                      "ports.6701.executors: bad_span: executor [3,1]");
        assertMessage("{\"format\":1,\"version\":1,\"ports\":{\"6701\":{\"topology\":\"t\",\"executors\":[[1,2147483647]]}}}",
                      "ports.6701.executors: span_too_large");
        assertMessage("{\"format\":2,\"version\":1,\"ports\":{}}", "unsupported plan format 2");
        assertMessage("{\"format\":1,\"version\":-1,\"ports\":{}}", "version must be >= 0");
        assertMessage("{\"format\":1,\"version\":1.5,\"ports\":{}}", "version: expected a whole number");
        assertMessage("[1,2]", "plan: expected an object");
        assertMessage("{format:1}", "not valid JSON");
    }

    private static void assertMessage(String json, String part) {
        PlanFormatException e = assertThrows(PlanFormatException.class, () -> PlanCodec.decode(json));
        assertTrue(e.getMessage().contains(part), "'" + e.getMessage() + "' should mention '" + part + "'");
    }

    @Test
    void fingerprintsDependOnPlacementNotOnOrder() {
        Map<ExecutorId, String> a = new TreeMap<>(Map.of(new ExecutorId(1, 1), "n1:[6701]",
                                                            new ExecutorId(2, 2), "n2:[6701]"));
        Map<ExecutorId, String> sameOtherOrder = new java.util.LinkedHashMap<>();
        sameOtherOrder.put(new ExecutorId(2, 2), "n2:[6701]");
        sameOtherOrder.put(new ExecutorId(1, 1), "n1:[6701]");
        Map<ExecutorId, String> moved = new TreeMap<>(Map.of(new ExecutorId(1, 1), "n2:[6701]",
                                                                new ExecutorId(2, 2), "n2:[6701]"));
        assertEquals(AssignmentFingerprint.of(a), AssignmentFingerprint.of(sameOtherOrder));
        assertTrue(!AssignmentFingerprint.of(a).equals(AssignmentFingerprint.of(moved)));
        assertEquals(16, AssignmentFingerprint.of(a).length());
    }
}
