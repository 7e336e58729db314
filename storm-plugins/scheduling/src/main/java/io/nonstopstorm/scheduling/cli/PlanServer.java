package io.nonstopstorm.scheduling.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * PlanCli as a long-lived process: one JSON request per line on stdin, one JSON reply per line on stdout,
 * until stdin ends. The planning is PlanCli's own ({@link PlanCli#plan}); only the framing is new.
 *
 * <pre>
 * request: {"id": 7, "scheduler": "otd", "input": {PLAN-INPUT document}}
 * reply:   {"id": 7, "exit": 0, "result": {what PlanCli --json prints}, "error": null}
 * </pre>
 *
 * {@code exit} is PlanCli's exit code: 0 planned, 1 no placement ({@code result} gives the reason), 2 bad
 * request or input, 3 internal error ({@code error} is the one line PlanCli prints on stderr; stack traces
 * go to stderr). A line that is not a request (not JSON, a field missing, longer than
 * {@code --max-line-bytes}) gets an exit-2 reply and the process keeps serving.
 */
public final class PlanServer {

    /** Far above any real cluster's PLAN-INPUT (a 1000-executor topology is a few MB). */
    public static final int DEFAULT_MAX_LINE_BYTES = 64 << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    private PlanServer() {
    }

    public static void main(String[] args) throws IOException {
        PlanCli.useQuietLogging();
        int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
        if (args.length == 2 && args[0].equals("--max-line-bytes")) {
            maxLineBytes = Integer.parseInt(args[1]);
        } else if (args.length != 0) {
            System.err.println("error: usage: PlanServer [--max-line-bytes N]");
            System.exit(PlanCli.BAD_INPUT);
        }
        // Replies own stdout: anything else that prints there (a library) goes to stderr instead.
        PrintStream replies = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        serve(new BufferedInputStream(System.in), replies, maxLineBytes);
    }

    /** Serves until {@code in} ends. */
    static void serve(InputStream in, PrintStream out, int maxLineBytes) throws IOException {
        LineReader lines = new LineReader(in, maxLineBytes);
        for (Line line = lines.next(); line != null; line = lines.next()) {
            if (line.text() == null) {
                out.println(error(null, "request line longer than " + maxLineBytes + " bytes"));
            } else if (!line.text().isBlank()) {
                out.println(answer(line.text()));
            }
        }
    }

    /** The reply to one request line. Never throws. */
    static String answer(String line) {
        JsonNode request;
        try {
            request = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return error(null, "request is not JSON: " + e.getOriginalMessage());
        }
        JsonNode id = request.isObject() ? request.get("id") : null;
        if (!request.isObject() || !request.path("scheduler").isTextual() || !request.path("input").isObject()) {
            return error(id, "a request is {\"scheduler\": NAME, \"input\": {PLAN-INPUT}} (optionally \"id\")");
        }
        String document;
        try {
            document = JSON.writeValueAsString(request.get("input"));
        } catch (JsonProcessingException e) {
            return error(id, "cannot read the input: " + e.getOriginalMessage());
        }
        PlanCli.Result result = PlanCli.plan(request.get("scheduler").asText(), document, "input", true);
        if (result.cause() != null) {
            result.cause().printStackTrace();
        }
        ObjectNode reply = JSON.createObjectNode();
        reply.set("id", id);
        reply.put("exit", result.code());
        try {
            reply.set("result", result.out().isBlank() ? null : JSON.readTree(result.out()));
        } catch (JsonProcessingException e) {
            return error(id, PlanCli.INTERNAL_ERROR, "the plan report is not JSON: " + e.getOriginalMessage());
        }
        reply.put("error", result.error());
        return reply.toString();
    }

    private static String error(JsonNode id, String message) {
        return error(id, PlanCli.BAD_INPUT, message);
    }

    private static String error(JsonNode id, int code, String message) {
        ObjectNode reply = JSON.createObjectNode();
        reply.set("id", id);
        reply.put("exit", code);
        reply.set("result", null);
        reply.put("error", message);
        return reply.toString();
    }

    /** One line: its text, or null text when it was longer than the bound (its bytes were skipped). */
    record Line(String text) {
    }

    /** Lines of UTF-8 text, each at most {@code maxBytes}; a longer one is skipped to its end, not kept. */
    static final class LineReader {
        private final InputStream in;
        private final int maxBytes;

        LineReader(InputStream in, int maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        /** The next line, or null at the end of the stream. */
        Line next() throws IOException {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            boolean tooLong = false;
            int b = in.read();
            if (b < 0) {
                return null;
            }
            for (; b >= 0 && b != '\n'; b = in.read()) {
                if (tooLong) {
                    continue;
                }
                if (buf.size() >= maxBytes) {
                    tooLong = true;
                    buf = null;
                    continue;
                }
                buf.write(b);
            }
            return new Line(tooLong ? null : buf.toString(StandardCharsets.UTF_8));
        }
    }
}
