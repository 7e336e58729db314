package io.nonstopstorm.workloads.feed;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * Reads a replay trace: (gzip) NDJSON, one object per line,
 * {@code {"offset_ms": <int>, "key": <string>, "payload": <string, optional>}}, sorted by offset_ms.
 * A line that cannot be read as such a record is skipped and counted, never thrown; so is a
 * truncated gzip stream (it ends the trace). Blank lines are ignored.
 */
public final class TraceReader implements Closeable {
    private final BufferedReader in;
    private long lineNo;
    private long badLines;
    private String lastProblem;
    private boolean ended;
    private EndTolerantStream source;

    public TraceReader(BufferedReader in) {
        this.in = in;
    }

    /** Opens a file; gzip is recognised by its magic bytes, so plain NDJSON works too. */
    public static TraceReader open(Path path) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(path), 1 << 16);
        raw.mark(2);
        int b1 = raw.read();
        int b2 = raw.read();
        raw.reset();
        EndTolerantStream in = new EndTolerantStream((b1 == 0x1f && b2 == 0x8b) ? new GZIPInputStream(raw, 1 << 16) : raw);
        TraceReader r = new TraceReader(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16));
        r.source = in;
        return r;
    }

    /**
     * Turns a read error (e.g. a gzip stream cut short) into the end of input, remembering it, so the
     * lines decoded before the damage are still replayed instead of lost in a reader's buffer.
     */
    static final class EndTolerantStream extends java.io.FilterInputStream {
        String error;

        EndTolerantStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            if (error != null) {
                return -1;
            }
            try {
                return super.read();
            } catch (IOException e) {
                error = e.toString();
                return -1;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (error != null) {
                return -1;
            }
            try {
                return super.read(b, off, len);
            } catch (IOException e) {
                error = e.toString();
                return -1;
            }
        }

        @Override
        public int available() throws IOException {
            return error != null ? 0 : super.available();
        }
    }

    /** The next good record, or null at the end of the trace. */
    public TraceRecord next() {
        while (!ended) {
            String line;
            try {
                line = in.readLine();
            } catch (IOException e) {
                ended = true;
                bad("unreadable input after line " + lineNo + ": " + e.getMessage());
                return null;
            }
            if (line == null) {
                ended = true;
                if (source != null && source.error != null) {
                    bad("input ends early after line " + lineNo + ": " + source.error);
                }
                return null;
            }
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            TraceRecord r = parse(line);
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    private TraceRecord parse(String line) {
        Object parsed;
        try {
            parsed = JSONValue.parseWithException(line);
        } catch (ParseException | RuntimeException e) {
            return bad("line " + lineNo + ": not JSON");
        }
        if (!(parsed instanceof Map<?, ?> m)) {
            return bad("line " + lineNo + ": not a JSON object");
        }
        Object offset = m.get("offset_ms");
        if (!(offset instanceof Number n) || n.doubleValue() < 0 || n.doubleValue() != Math.floor(n.doubleValue())
            || Double.isInfinite(n.doubleValue())) {
            return bad("line " + lineNo + ": offset_ms must be an integer >= 0");
        }
        Object key = m.get("key");
        if (!(key instanceof String)) {
            return bad("line " + lineNo + ": key must be a string");
        }
        Object payload = m.get("payload");
        if (payload != null && !(payload instanceof String)) {
            return bad("line " + lineNo + ": payload must be a string");
        }
        return new TraceRecord(n.longValue(), (String) key, (String) payload);
    }

    private TraceRecord bad(String problem) {
        badLines++;
        lastProblem = problem;
        return null;
    }

    public long badLines() {
        return badLines;
    }

    /** The most recent reason a line was skipped, or null. */
    public String lastProblem() {
        return lastProblem;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
