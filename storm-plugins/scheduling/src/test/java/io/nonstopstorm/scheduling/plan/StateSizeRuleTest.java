package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ExecutorId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StateSizeRuleTest {
    private static final ExecutorId COUNT_3 = new ExecutorId(3, 3);
    private static final ExecutorId COUNT_4 = new ExecutorId(4, 4);

    private static String doc(String host, int port, String executors) {
        return "{\"schema\":\"nonstop.metrics.worker\",\"version\":1,\"topology_id\":\"t-1\",\"worker\":{\"host\":\""
               + host + "\",\"port\":" + port + "},\"executors\":[" + executors + "]}";
    }

    private static String executor(ExecutorId e, String state) {
        return "{\"id\":[" + e.start() + "," + e.end() + "]" + (state == null ? "" : ",\"state\":" + state) + "}";
    }

    private static String state(long bytes, boolean over, long at) {
        return "{\"bytes\":" + bytes + ",\"over_limit\":" + over + ",\"measured_at_ms\":" + at + "}";
    }

    @Test
    void theNewestMeasurementOfEachExecutorCountsWhicheverWorkerPublishedIt() {
        // The executor moved from a to b: a's older document may still list it.
        Map<ExecutorId, StateSizeRule.Measured> m = StateSizeRule.measured(List.of(
            doc("a", 6700, executor(COUNT_3, state(10, false, 1_000)) + "," + executor(COUNT_4, null)),
            doc("b", 6701, executor(COUNT_3, state(99, false, 2_000)))));
        assertEquals(Map.of(COUNT_3, new StateSizeRule.Measured(99, false, 2_000, "b-6701")), m);
    }

    @Test
    void garbageDocumentsAndMalformedStatesAddNothing() {
        Map<ExecutorId, StateSizeRule.Measured> m = StateSizeRule.measured(List.of(
            "not json", "{\"schema\":\"other\"}",
            doc("a", 6700, executor(COUNT_3, "{\"bytes\":-5,\"over_limit\":true,\"measured_at_ms\":1}")),
            doc("a", 6700, executor(COUNT_4, "{\"bytes\":5,\"over_limit\":\"yes\",\"measured_at_ms\":1}")),
            doc("a", 6700, executor(new ExecutorId(5, 5), "[1,2]"))));
        assertEquals(Map.of(), m);
    }

    @Test
    void aMoveOfAStateOverTheLimitIsRefusedWithTheSizeTheWorkerAndTheKey() {
        Map<ExecutorId, StateSizeRule.Measured> m = Map.of(
            COUNT_3, new StateSizeRule.Measured(101, true, 0, "a-6700"),
            COUNT_4, new StateSizeRule.Measured(50, false, 0, "a-6700"));
        Optional<String> why = StateSizeRule.refusal(List.of(COUNT_4, COUNT_3), e -> "count", m, 100);
        assertTrue(why.isPresent());
        assertTrue(why.get().startsWith("executor [3,3] (count) is not moved live: its state is more than 100 bytes "
                                        + "(measured by worker a-6700 at 1970-01-01T00:00:00Z), over "
                                        + "nonstop.migration.state.max.bytes = 100"), why.get());
    }

    @Test
    void aStateWithinTheLimitOrNeverMeasuredMoves() {
        Map<ExecutorId, StateSizeRule.Measured> m = Map.of(COUNT_3, new StateSizeRule.Measured(100, false, 0, "a-6700"));
        assertEquals(Optional.empty(), StateSizeRule.refusal(List.of(COUNT_3, COUNT_4), e -> "count", m, 100));
    }

    @Test
    void aSizeOverALowerLimitThanTheWorkerMeasuredAgainstIsRefusedToo() {
        Map<ExecutorId, StateSizeRule.Measured> m = Map.of(COUNT_3, new StateSizeRule.Measured(500, false, 0, "a-6700"));
        assertTrue(StateSizeRule.refusal(List.of(COUNT_3), e -> "count", m, 100).orElseThrow()
                       .contains("its state is 500 bytes"));
    }
}
