package org.apache.storm.daemon.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Against the Storm 2.8.3 jars the module builds with: every member the agent reaches is there. */
class NonstopInternalsTest {
    @Test
    void everyMemberOfTheWorkerAndNimbusIsFoundWithItsType() {
        assertEquals(List.of(), NonstopInternals.problems("worker"));
        assertEquals(List.of(), NonstopInternals.problems("nimbus"));
        assertEquals(List.of(), NonstopInternals.problems("supervisor"));
    }

    @SuppressWarnings("unused")
    private static final class Sample {
        private java.util.Map<String, Object> conf;
        private java.util.concurrent.atomic.AtomicReferenceArray<Object> queuesToFlush;
    }

    @Test
    void aRenamedOrRetypedMemberIsReportedNotThrown() {
        NonstopInternals.Lookup lookup = new NonstopInternals.Lookup();
        lookup.field(Sample.class, "conf", java.util.Map.class);
        lookup.field(Sample.class, "queuesToFlush", Object[].class);
        lookup.field(Sample.class, "renamed", java.util.Set.class);
        lookup.method(Sample.class, "mkAssignments");
        lookup.type("org.apache.storm.NoSuchClass");
        assertEquals(4, lookup.problems.size(), lookup.problems.toString());
        assertEquals(true, lookup.problems.get(0).contains("AtomicReferenceArray, expected [Ljava.lang.Object;"),
                     lookup.problems.get(0));
    }
}
