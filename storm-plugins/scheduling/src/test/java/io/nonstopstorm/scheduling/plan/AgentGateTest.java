package io.nonstopstorm.scheduling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.wire.ExecutorId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentGateTest {
    private static final String OFF = "{\"storm_version\":\"2.9.0\",\"verified\":false,"
                                      + "\"missing\":[\"advice Worker.loadWorker not woven\"]}";
    private static final String ON = "{\"storm_version\":\"2.8.3\",\"verified\":true,\"missing\":[]}";
    private static final Map<String, String> HOSTS = Map.of("sup-a", "node1", "sup-b", "node2", "sup-c", "node3");

    private static Optional<String> refusal(Map<String, String> records, PlanDecision.Move... moves) {
        return AgentGate.refusal(List.of(moves), s -> HOSTS.get(s.nodeId()), h -> Optional.ofNullable(records.get(h)));
    }

    private static PlanDecision.Move move(String from, String to) {
        return new PlanDecision.Move(new ExecutorId(3, 3), from == null ? null : new SlotId(from, 6700),
                                     new SlotId(to, 6701));
    }

    @Test
    void aMoveOntoOrOffAHostWhoseAgentIsOffIsRefusedWithTheReason() {
        Optional<String> onto = refusal(Map.of("node1", ON, "node2", OFF), move("sup-a", "sup-b"));
        assertTrue(onto.isPresent());
        assertTrue(onto.get().contains("host node2") && onto.get().contains("Storm 2.9.0")
                   && onto.get().contains("advice Worker.loadWorker not woven"), onto.get());
        assertTrue(refusal(Map.of("node1", OFF, "node2", ON), move("sup-a", "sup-b")).isPresent());
    }

    @Test
    void verifiedUnknownAndUnreadableRecordsDoNotRefuse() {
        assertEquals(Optional.empty(), refusal(Map.of("node1", ON, "node2", ON), move("sup-a", "sup-b")));
        assertEquals(Optional.empty(), refusal(Map.of(), move("sup-a", "sup-b")));
        assertEquals(Optional.empty(), refusal(Map.of("node2", "not json"), move(null, "sup-b")));
        // A host that no move touches is not judged.
        assertEquals(Optional.empty(), refusal(Map.of("node3", OFF), move("sup-a", "sup-b")));
    }
}
