package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.wire.ExecutorId;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PlanParsingTest {

    @Test
    void readsExecutorsAndTargetsByHostOrSupervisorId() {
        MigrationPlan p = MigrationPlanParser.parse("""
            {"request_id": "r-1",
             "placement": {"[3,3]": "127.0.0.12:37121", "[5-6]": "4f1c-aa:6701"}}""").orElseThrow();
        assertEquals(Optional.of("r-1"), p.requestId());
        assertEquals(new PlanTarget("127.0.0.12", 37121), p.moves().get(new ExecutorId(3, 3)));
        assertEquals(new PlanTarget("4f1c-aa", 6701), p.moves().get(new ExecutorId(5, 6)));
        assertEquals(Optional.empty(), MigrationPlanParser.parse("{\"placement\":{\"[1,1]\":\"h:1\"}}").orElseThrow().requestId());
    }

    @Test
    void rejectsBadPlansWithAReason() {
        assertReason("not json", "not valid JSON");
        assertReason("[]", "must be a JSON object");
        assertReason("{}", "no \"placement\" object");
        assertReason("{\"placement\":{}}", "places no executor");
        assertReason("{\"placement\":{\"3\":\"h:1\"}}", "executor 3: not an executor id");
        // The wire spelling has no spaces (Storm's List.toString "[3, 3]" is not it).
        assertReason("{\"placement\":{\"[3, 3]\":\"h:1\"}}", "executor [3, 3]: not an executor id");
        assertReason("{\"placement\":{\"[4,3]\":\"h:1\"}}", "executor [4,3]: bad_span");
        assertReason("{\"placement\":{\"[1,2147483647]\":\"h:1\"}}", "executor [1,2147483647]: span_too_large");
        assertReason("{\"placement\":{\"[1,99999999999999999999]\":\"h:1\"}}", "executor [1,99999999999999999999]: ");
        assertReason("{\"placement\":{\"[3,3]\":\"h\"}}", "is not HOST:PORT");
        assertReason("{\"placement\":{\"[3,3]\":\"h:x\"}}", "no numeric port");
        assertReason("{\"placement\":{\"[3,3]\":\"h:70000\"}}", "is not a port");
        assertReason("{\"placement\":{\"[3,3]\":6700}}", "must be a \"HOST:PORT\" string");
        assertReason("{\"placement\":{\"[3,3]\":\"a:1\",\"[3-3]\":\"b:2\"}}", "placed more than once");
        assertReason("{\"request_id\":5,\"placement\":{\"[3,3]\":\"a:1\"}}", "request_id must be a string");
    }

    private static void assertReason(String json, String part) {
        Outcome<MigrationPlan> o = MigrationPlanParser.parse(json);
        assertFalse(o.isSuccess(), json);
        assertTrue(o.reasonOrNull().contains(part), "'" + o.reasonOrNull() + "' should mention '" + part + "'");
    }

    @Test
    void targetsSplitAtTheLastColon() {
        assertEquals(new PlanTarget("a:b", 9), PlanTarget.parse("a:b:9"));
        assertEquals("h:1", new PlanTarget("h", 1).toString());
    }
}
