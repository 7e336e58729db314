package io.nonstopstorm.workloads.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleFileTest {
    @Test
    void anEditedFileIsPickedUpAndABadEditKeepsTheCurrentSchedule(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("rate.txt");
        Files.writeString(f, "0 100\n");
        ScheduleFile sf = new ScheduleFile(f);
        assertEquals(RateSchedule.constant(100), sf.load());
        assertNull(sf.poll());

        write(f, "0 100\n60 400\n", 1);
        assertEquals(400, sf.poll().rateAt(61), 1e-9);
        assertNull(sf.takeProblem());

        write(f, "0 lots\n", 2);
        assertNull(sf.poll());
        String problem = sf.takeProblem();
        assertTrue(problem.contains("line 1") && problem.contains("keeping the current schedule"), problem);
        assertNull(sf.takeProblem());
    }

    @Test
    void aBadFileAtStartIsAnErrorNamingTheFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("rate.txt");
        Files.writeString(f, "5\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ScheduleFile(f).load());
        assertTrue(e.getMessage().startsWith(f + ": line 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ScheduleFile(dir.resolve("missing")).load());
    }

    /** Rewrites with a distinct modification time (file systems may have coarse timestamps). */
    private static void write(Path f, String text, int step) throws IOException {
        Files.writeString(f, text);
        Files.setLastModifiedTime(f, FileTime.fromMillis(1_000_000L + step * 10_000L));
    }
}
