package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecordedMovesTest {

    static String decision(String status, int planVersion, long decidedAt, String movesJson) {
        return "{\"topology\":\"wc\",\"topology_id\":\"wc-1-100\",\"plan_version\":" + planVersion
            + ",\"request_id\":\"r-1\",\"status\":\"" + status + "\",\"reason\":\"plan applied: 1 move\","
            + "\"moves\":" + movesJson + ",\"decided_at_ms\":" + decidedAt + "}";
    }

    static final String ONE_MOVE = "[{\"executor\":\"[3,3]\",\"from\":\"127.0.0.11:37101\",\"to\":\"127.0.0.12:37121\"}]";

    static final String CONTROLLER = "{\"cycle\":7,\"at\":1700.5,\"topology\":\"wc\",\"policy\":\"otd\",\"kind\":\"applied\","
        + "\"reason\":\"2 moves planned\",\"applied\":[{\"topology\":\"wc\",\"executor\":\"[3-3]\","
        + "\"from_slot\":\"127.0.0.11:37101\",\"to_slot\":\"127.0.0.12:37121\",\"reason\":\"split talks to count on node 2\","
        + "\"expected_gain\":120.0}]}";

    @Test
    void anAppliedDecisionGivesItsMovesWithTheControllersReasonAndThePlanToDecisionTime() {
        List<RecordedMoves.Move> moves = RecordedMoves.of(
            new DecisionDocs("wc", decision("applied", 4, 10_400, ONE_MOVE), 4, 10_000, CONTROLLER));
        assertEquals(List.of(new RecordedMoves.Move("wc", "wc-1-100", 4, "[3-3]", "127.0.0.11:37101",
            "127.0.0.12:37121", "split talks to count on node 2", "controller", 400L, 10_400)), moves);
    }

    @Test
    void aPlanNotFromTheControllerKeepsTheSchedulersReason() {
        String other = CONTROLLER.replace("127.0.0.12:37121", "127.0.0.13:37141");
        RecordedMoves.Move m = RecordedMoves.of(
            new DecisionDocs("wc", decision("applied", 4, 10_400, ONE_MOVE), 4, 10_000, other)).get(0);
        assertEquals("plan", m.source());
        assertEquals("plan applied: 1 move", m.reason());
        assertEquals("plan", RecordedMoves.of(
            new DecisionDocs("wc", decision("applied", 4, 10_400, ONE_MOVE), 4, 10_000, null)).get(0).source());
    }

    @Test
    void aControllerMoveWithoutItsOwnReasonTakesTheRecordsReason() {
        String noOwn = CONTROLLER.replace("\"reason\":\"split talks to count on node 2\",", "");
        assertEquals("2 moves planned", RecordedMoves.of(
            new DecisionDocs("wc", decision("applied", 4, 10_400, ONE_MOVE), 4, 10_000, noOwn)).get(0).reason());
    }

    @Test
    void thePlanToDecisionTimeIsUnknownOnceThePlanWasRewritten() {
        assertNull(RecordedMoves.of(new DecisionDocs("wc", decision("applied", 4, 10_400, ONE_MOVE), 5, 20_000, null))
            .get(0).planToDecisionMs());
        assertNull(RecordedMoves.of(new DecisionDocs("wc", decision("applied", 4, 10_400, ONE_MOVE), -1, -1, null))
            .get(0).planToDecisionMs());
    }

    @Test
    void unchangedAndRejectedDecisionsMoveNothing() {
        assertEquals(List.of(), RecordedMoves.of(new DecisionDocs("wc", decision("unchanged", 4, 1, "[]"), 4, 0, null)));
        assertEquals(List.of(), RecordedMoves.of(new DecisionDocs("wc", decision("rejected", 4, 1, ONE_MOVE), 4, 0, null)));
    }

    @Test
    void malformedDocumentsAreRefusedNamingTheirZnode() {
        for (String bad : List.of("not json", "[1,2]", decision("applied", 4, 1, "{}"),
            decision("applied", 4, 1, "[{\"executor\":\"three\",\"to\":\"h:1\"}]"),
            "{\"status\":\"applied\",\"topology_id\":\"wc-1-100\",\"plan_version\":\"4\"}")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RecordedMoves.of(new DecisionDocs("wc", bad, 4, 0, null)), bad);
            assertTrue(e.getMessage().startsWith("/nonstop/decisions/wc: "), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RecordedMoves.of(
            new DecisionDocs("wc", decision("applied", 4, 1, ONE_MOVE), 4, 0, "{\"applied\": 3}")));
        assertTrue(e.getMessage().startsWith("/nonstop/controller/decisions/wc: "), e.getMessage());
    }

    @Test
    void executorIdsTakeStormsUiForm() {
        assertEquals("[3-3]", RecordedMoves.executorId("[3,3]", "z"));
        assertEquals("[3-5]", RecordedMoves.executorId("[3-5]", "z"));
        // The wire spellings have no spaces.
        assertThrows(IllegalArgumentException.class, () -> RecordedMoves.executorId(" [3-5] ", "z"));
        assertThrows(IllegalArgumentException.class, () -> RecordedMoves.executorId("[3]", "z"));
    }
}
