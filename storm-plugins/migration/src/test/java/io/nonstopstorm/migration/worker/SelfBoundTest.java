package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SelfBoundTest {

    private static Map<Integer, ArrayList<String>> bundles(Object... taskThenMessages) {
        Map<Integer, ArrayList<String>> out = new HashMap<>();
        for (int i = 0; i < taskThenMessages.length; i += 2) {
            out.put((Integer) taskThenMessages[i], new ArrayList<>(List.of(((String) taskThenMessages[i + 1]).split(","))));
        }
        return out;
    }

    @Test
    void messagesRoutedToThisWorkerAreTakenOutAndTheRestStay() {
        Map<Integer, ArrayList<String>> b = bundles(7, "a,b", 9, "c");
        SelfBound.Split<String> s = SelfBound.take(b, Map.of(7, "self", 9, "other"), "self", Set.of("other")::contains);
        assertEquals(List.of("a", "b"), s.own());
        assertEquals(0, s.unsendable());
        assertEquals(List.of(), b.get(7), "taken, so the drainer sends nothing for task 7");
        assertEquals(List.of("c"), b.get(9));
    }

    @Test
    void whatTheDrainerWouldDropIsCountedAndLeftToIt() {
        Map<Integer, ArrayList<String>> b = bundles(3, "a,b", 4, "c", 5, "d");
        b.put(6, new ArrayList<>());
        SelfBound.Split<String> s = SelfBound.take(b, Map.of(4, "gone", 5, "other", 6, "gone"), "self",
                                                   Set.of("other")::contains);
        assertEquals(List.of(), s.own());
        assertEquals(3, s.unsendable(), "task 3 has no address, task 4's node no connection; empty bundles count nothing");
        assertEquals(List.of("a", "b"), b.get(3));
    }
}
