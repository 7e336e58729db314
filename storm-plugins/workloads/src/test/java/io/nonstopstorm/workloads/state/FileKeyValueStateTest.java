package io.nonstopstorm.workloads.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.state.DefaultStateSerializer;
import org.apache.storm.state.KeyValueState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Storm's state contract (prepare, commit, rollback) over files, and what a relaunched worker finds. */
class FileKeyValueStateTest {
    @TempDir
    Path dir;

    private FileKeyValueState<String, Long> open() {
        return new FileKeyValueState<>(dir.resolve("count-3"), new DefaultStateSerializer<>());
    }

    private static Map<String, Long> contents(KeyValueState<String, Long> s) {
        Map<String, Long> out = new HashMap<>();
        s.forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** A state whose transaction 1 committed a = 1. */
    private FileKeyValueState<String, Long> committedOnce() {
        FileKeyValueState<String, Long> s = open();
        s.put("a", 1L);
        s.prepareCommit(1);
        s.commit(1);
        return s;
    }

    @Test
    void aRollbackGoesBackToTheLastCommitNotToThePrepare() {
        FileKeyValueState<String, Long> s = committedOnce();
        s.put("a", 2L);
        s.put("b", 7L);
        s.prepareCommit(2);
        s.rollback();
        assertEquals(Map.of("a", 1L), contents(s));
        assertFalse(Files.exists(dir.resolve("count-3").resolve(FileKeyValueState.PREPARED)));
    }

    @Test
    void aNewInstanceStartsFromTheCommittedContentsAndCanStillCommitThePreparedTransaction() {
        FileKeyValueState<String, Long> s = committedOnce();
        s.put("a", 5L);
        s.prepareCommit(2);
        s.put("a", 9L);   // after the prepare: lost with the worker, replayed by Storm

        FileKeyValueState<String, Long> relaunched = open();
        assertEquals(Map.of("a", 1L), contents(relaunched));
        relaunched.commit(2);
        assertEquals(5L, open().get("a"));
    }

    @Test
    void aCommitWithoutItsPrepareAndAPrepareOverAnOpenOneAreRefused() {
        FileKeyValueState<String, Long> s = open();
        assertThrows(IllegalStateException.class, () -> s.commit(1));
        s.prepareCommit(1);
        s.prepareCommit(1);   // the same txid may be prepared again
        assertThrows(IllegalStateException.class, () -> s.prepareCommit(2));
        assertThrows(IllegalStateException.class, () -> s.commit(3));
    }

    @Test
    void theCommitOfTheLastCommittedTransactionIsTakenAgainWithoutAChangeHereAndInANewInstance() {
        // Storm's checkpoint spout sends COMMIT again when the first one's tuple tree failed.
        FileKeyValueState<String, Long> s = committedOnce();
        s.put("a", 2L);   // working copy, not prepared
        s.commit(1);
        assertEquals(Map.of("a", 2L), contents(s));
        assertEquals(Map.of("a", 1L), contents(open()));
        open().commit(1);
        assertEquals(Map.of("a", 1L), contents(open()));
        // Any other transaction without its prepare is still refused, older or newer.
        assertThrows(IllegalStateException.class, () -> s.commit(0));
        assertThrows(IllegalStateException.class, () -> s.commit(2));
        s.prepareCommit(2);
        assertThrows(IllegalStateException.class, () -> s.commit(1));
        s.commit(2);
        assertEquals(Map.of("a", 2L), contents(open()));
    }

    @Test
    void aFullCopyKeepsTheLastCommittedTransactionForACommitSentAgain() {
        FileKeyValueState<String, Long> s = open();
        for (long t = 1; t <= FileKeyValueState.CHANGES_PER_FULL_COPY; t++) {
            s.put("k", t);
            s.prepareCommit(t);
            s.commit(t);
        }
        FileKeyValueState<String, Long> relaunched = open();   // from the full copy alone, no change file after it
        relaunched.commit(FileKeyValueState.CHANGES_PER_FULL_COPY);
        assertThrows(IllegalStateException.class, () -> relaunched.commit(FileKeyValueState.CHANGES_PER_FULL_COPY + 1));
        assertEquals((long) FileKeyValueState.CHANGES_PER_FULL_COPY, open().get("k"));
    }

    @Test
    void aCommitWithoutATransactionIsKeptAndNothingIsThereAtFirst() {
        FileKeyValueState<String, Long> s = open();
        assertNull(s.get("x"));
        assertEquals(4L, s.get("x", 4L));
        s.put("x", 3L);
        s.commit();
        assertEquals(3L, s.delete("x"));
        assertTrue(contents(s).isEmpty());
        assertEquals(Map.of("x", 3L), contents(open()));
    }

    @Test
    void aCheckpointWritesWhatChangedNotTheWholeState() throws Exception {
        FileKeyValueState<String, byte[]> s = new FileKeyValueState<>(dir.resolve("keep-4"), new DefaultStateSerializer<>());
        s.put("ballast", new byte[1 << 20]);
        s.prepareCommit(1);
        s.commit(1);
        s.put("count", new byte[8]);
        s.prepareCommit(2);
        assertTrue(Files.size(dir.resolve("keep-4").resolve(FileKeyValueState.PREPARED)) < 1024);
        s.commit(2);
        s.delete("count");
        s.commit();
        FileKeyValueState<String, byte[]> relaunched = new FileKeyValueState<>(dir.resolve("keep-4"),
            new DefaultStateSerializer<>());
        assertEquals(1 << 20, relaunched.get("ballast").length);
        assertNull(relaunched.get("count"));
    }

    @Test
    void aFullCopyReplacesTheChangesItHoldsAndARelaunchReadsItThenTheLaterOnes() throws Exception {
        FileKeyValueState<String, Long> s = open();
        int commits = FileKeyValueState.CHANGES_PER_FULL_COPY + 3;
        for (long t = 1; t <= commits; t++) {
            s.put("k" + (t % 5), t);
            s.delete("k" + ((t + 2) % 5));
            s.prepareCommit(t);
            s.commit(t);
        }
        try (var files = Files.list(dir.resolve("count-3"))) {
            assertEquals(3, files.filter(f -> f.getFileName().toString().startsWith("change-")).count());
        }
        assertEquals(contents(s), contents(open()));
        s.put("late", 1L);
        s.prepareCommit(commits + 1);
        s.rollback();
        assertEquals(contents(open()), contents(s));
    }

    @Test
    void theProviderNeedsADirectoryAndKeepsNamespacesApart() {
        FileStateProvider p = new FileStateProvider();
        assertThrows(IllegalArgumentException.class, () -> p.newState("count-3", Map.of(), null));
        assertEquals(dir.resolve("a_b-1"), FileStateProvider.directoryOf(dir, "a/b-1"));
    }
}
