package io.nonstopstorm.migration.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;

class VerificationReportTest {
    private static final Set<String> NEEDED = Set.of("WorkerState.refreshConnections", "Worker.loadWorker");

    @Test
    void everythingWovenOnAVerifiedVersionTurnsMigrationOn() {
        VerificationReport r = VerificationReport.of("worker", "2.8.3", NEEDED, NEEDED, List.of(), false);
        assertTrue(r.migrationOn());
        assertEquals(List.of(), r.problems());
    }

    @Test
    void eachAdviceNotWovenAndEachMemberProblemIsNamed() {
        VerificationReport r = VerificationReport.of("worker", "2.8.3", NEEDED, Set.of("Worker.loadWorker", "Other.x"),
                                                     List.of("field org.apache.storm.X.y (Map) missing"), true);
        assertFalse(r.migrationOn());
        assertEquals(List.of("advice WorkerState.refreshConnections not woven", "field org.apache.storm.X.y (Map) missing"),
                     r.missing());
        assertTrue(r.errorLine().contains("Storm 2.8.3"), r.errorLine());
        assertTrue(r.errorLine().contains("advice WorkerState.refreshConnections not woven"), r.errorLine());
    }

    @Test
    void anUnverifiedVersionNeedsTheOverride() {
        VerificationReport strict = VerificationReport.of("supervisor", "2.9.0", NEEDED, NEEDED, List.of(), false);
        assertFalse(strict.versionVerified());
        assertFalse(strict.migrationOn());
        assertTrue(strict.problems().get(0).contains(VerificationReport.ALLOW_UNVERIFIED), strict.problems().toString());
        VerificationReport allowed = VerificationReport.of("supervisor", "2.9.0", NEEDED, NEEDED, List.of(), true);
        assertTrue(allowed.migrationOn());
        // The override never covers a missing piece.
        assertFalse(VerificationReport.of("supervisor", "2.9.0", NEEDED, Set.of(), List.of(), true).migrationOn());
    }

    @Test
    void theVersionListHoldsTheVerifiedReleasesOnly() {
        assertTrue(VerifiedStormVersions.contains("2.8.3"));
        assertTrue(VerifiedStormVersions.contains("2.7.1"));
        assertTrue(VerifiedStormVersions.contains("2.6.4"));
        assertFalse(VerifiedStormVersions.contains("2.8.4"));
        assertFalse(VerifiedStormVersions.contains("2.8.3-SNAPSHOT"));
        assertFalse(VerifiedStormVersions.contains(null));
    }

    @Test
    void theAgentsRecordCarriesVersionVerdictAndMissingPieces() {
        VerificationReport r = VerificationReport.of("supervisor", "2.8.3", NEEDED, Set.of("Worker.loadWorker"), List.of(),
                                                     false);
        Map<?, ?> json = (Map<?, ?>) JSONValue.parse(r.toJson("123@node1", 1700000000000L));
        assertEquals("2.8.3", json.get("storm_version"));
        assertEquals(false, json.get("verified"));
        assertEquals(List.of("advice WorkerState.refreshConnections not woven"), json.get("missing"));
        assertEquals("123@node1", json.get("jvm"));
        assertEquals(1700000000000L, ((Number) json.get("time")).longValue());
    }

    @Test
    void adviceCountsAsWovenOnlyOnceItsTypeWasTransformed() {
        WovenAdvice w = new WovenAdvice();
        w.matched("a.WorkerState", "WorkerState.refreshConnections");
        w.matched("a.ExecutorTransfer", "ExecutorTransfer.tryTransfer");
        assertEquals(Set.of(), w.woven());
        w.transformed("a.WorkerState");
        w.failed("a.ExecutorTransfer", new IllegalStateException("field queuesToFlush has another type"));
        w.transformed("a.ExecutorTransfer");
        assertEquals(Set.of("WorkerState.refreshConnections"), w.woven());
        assertEquals(1, w.errors().size());
        assertTrue(w.errors().get(0).contains("queuesToFlush"), w.errors().toString());
    }
}
