package io.nonstopstorm.workloads.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FeedsTest {
    @Test
    void pacedTasksTogetherEmitEveryIndexExactlyOnce() {
        List<String> lines = List.of("a", "b", "c", "d", "e");
        List<Object> seen = new ArrayList<>();
        for (int task = 0; task < 3; task++) {
            PacedFeed f = new PacedFeed(ItemMaker.lines(lines, 2), RateSchedule.constant(300), task, 3, 7);
            while (!f.exhausted()) {
                seen.add(f.take().get(0));
            }
            assertEquals(Double.POSITIVE_INFINITY, f.nextTime());
        }
        seen.sort((a, b) -> Integer.compare(Integer.parseInt((String) a), Integer.parseInt((String) b)));
        assertEquals(List.of("0", "1", "2", "3", "4", "5", "6"), seen);
    }

    @Test
    void eachTaskGetsItsShareOfTheRate() {
        PacedFeed f = new PacedFeed(ItemMaker.generated(10, 10, 1), RateSchedule.constant(100), 1, 4, 0);
        assertEquals(0.04, f.nextTime(), 1e-9); // 25/s for this task
        assertEquals(100.0, f.targetRate(0) * 4, 1e-9);
        assertFalse(f.exhausted());
    }

    @Test
    void generatedPayloadsHaveTheRequestedSize() {
        List<Object> v = ItemMaker.generated(3, 10, 2).make(1234);
        assertEquals("k1", v.get(0));
        assertEquals(10, ((String) v.get(1)).length());
        assertTrue(((String) v.get(1)).startsWith("1234:"));
        assertEquals(3, ((String) ItemMaker.generated(3, 3, 1).make(98765).get(0)).length());
    }

    @Test
    void traceLinesThatCannotBeReadAreSkippedAndCounted() {
        String text = String.join("\n",
            "{\"offset_ms\": 0, \"key\": \"a\", \"payload\": \"p0\"}",
            "not json at all",
            "",
            "{\"offset_ms\": 10, \"key\": \"b\"}",
            "{\"offset_ms\": -5, \"key\": \"c\"}",
            "{\"offset_ms\": 1.5, \"key\": \"c\"}",
            "{\"offset_ms\": 20, \"key\": 7}",
            "[1, 2]",
            "{\"offset_ms\": 20, \"key\": \"d\", \"payload\": {\"x\": 1}}",
            "{\"offset_ms\": 30, \"key\": \"e\", \"payload\": \"p4\"}");
        TraceReader r = new TraceReader(new BufferedReader(new StringReader(text)));
        List<TraceRecord> good = new ArrayList<>();
        for (TraceRecord t = r.next(); t != null; t = r.next()) {
            good.add(t);
        }
        assertEquals(List.of(new TraceRecord(0, "a", "p0"), new TraceRecord(10, "b", null),
            new TraceRecord(30, "e", "p4")), good);
        assertEquals(6, r.badLines());
        assertTrue(r.lastProblem().startsWith("line 9:"), r.lastProblem());
    }

    @Test
    void gzipTracesAreReplayedAtTheirOffsetsSplitOverTasks(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("t.ndjson.gz");
        gzip(trace, "{\"offset_ms\": 0, \"key\": \"a\"}\n{\"offset_ms\": 500, \"key\": \"b\", \"payload\": \"x\"}\n"
            + "{\"offset_ms\": 1000, \"key\": \"c\"}\n");
        TraceFeed task1 = new TraceFeed(TraceReader.open(trace), 2.0, 1, 2, 0, 2);
        assertEquals(0.25, task1.nextTime(), 1e-9); // record 1 at 500 ms, replayed twice as fast
        assertEquals(List.of("b", "x"), task1.take());
        assertTrue(task1.exhausted());
        TraceFeed task0 = new TraceFeed(TraceReader.open(trace), 1.0, 0, 2, 0, 1);
        assertEquals(List.of("a"), task0.take());
        assertEquals(1.0, task0.nextTime(), 1e-9);
        assertEquals(List.of("c"), task0.take());
        assertTrue(task0.exhausted());
    }

    @Test
    void aTruncatedGzipEndsTheTraceAndCountsOneBadRead(@TempDir Path dir) throws IOException {
        Path full = dir.resolve("full.gz");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            sb.append("{\"offset_ms\": ").append(i).append(", \"key\": \"k").append(i).append("\"}\n");
        }
        gzip(full, sb.toString());
        byte[] bytes = Files.readAllBytes(full);
        Path cut = dir.resolve("cut.gz");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length / 2));
        TraceReader r = TraceReader.open(cut);
        int n = 0;
        while (r.next() != null) {
            n++;
        }
        assertTrue(n > 0 && n < 2000, "read " + n);
        assertTrue(r.badLines() >= 1);
        assertNull(r.next());
    }

    @Test
    void plainNdjsonIsAcceptedToo(@TempDir Path dir) throws IOException {
        Path plain = dir.resolve("t.ndjson");
        Files.writeString(plain, "{\"offset_ms\": 3, \"key\": \"a\"}\n");
        assertEquals(new TraceRecord(3, "a", null), TraceReader.open(plain).next());
    }

    private static void gzip(Path p, String text) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        Files.write(p, bos.toByteArray());
    }
}
