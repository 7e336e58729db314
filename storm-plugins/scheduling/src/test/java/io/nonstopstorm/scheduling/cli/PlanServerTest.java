package io.nonstopstorm.scheduling.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<JsonNode> serve(String input, int maxLineBytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PlanServer.serve(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), maxLineBytes);
        List<JsonNode> replies = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            replies.add(JSON.readTree(line));
        }
        return replies;
    }

    private static String request(int id, String scheduler) throws IOException {
        String example = Files.readString(Path.of("examples/wordcount.json"));
        return "{\"id\":" + id + ",\"scheduler\":\"" + scheduler + "\",\"input\":" + example.replace("\n", " ") + "}";
    }

    @Test
    void aPlanIsWhatPlanCliPrintsAndBadLinesGetErrorRepliesWhileServingGoesOn() throws IOException {
        String input = request(1, "aniello-online") + "\n"
                + "this is not json\n"
                + "\n"
                + "{\"id\": 2, \"scheduler\": \"otd\"}\n"
                + request(3, "no-such-scheduler") + "\n"
                + "x".repeat(300) + "\n"
                + request(4, "dsm") + "\n";
        List<JsonNode> replies = serve(input, 100_000);
        assertEquals(6, replies.size(), replies.toString());   // the blank line gets none

        JsonNode planned = replies.get(0);
        assertEquals(1, planned.get("id").asInt());
        assertEquals(PlanCli.OK, planned.get("exit").asInt());
        assertTrue(planned.get("result").get("ok").asBoolean());
        assertEquals("aniello-online", planned.get("result").get("scheduler").asText());
        assertTrue(planned.get("error").isNull());

        assertEquals(PlanCli.BAD_INPUT, replies.get(1).get("exit").asInt());
        assertTrue(replies.get(1).get("error").asText().startsWith("request is not JSON"), replies.get(1).toString());
        assertEquals(2, replies.get(2).get("id").asInt());
        assertEquals(PlanCli.BAD_INPUT, replies.get(2).get("exit").asInt());
        assertTrue(replies.get(3).get("error").asText().contains("unknown scheduler 'no-such-scheduler'"));
        assertEquals(PlanCli.BAD_INPUT, replies.get(4).get("exit").asInt());
        assertEquals(PlanCli.OK, replies.get(5).get("exit").asInt());
        assertEquals(4, replies.get(5).get("id").asInt());
    }

    @Test
    void anOversizeLineIsSkippedToItsEndAndRefused() throws IOException {
        List<JsonNode> replies = serve("y".repeat(5000) + "\n" + request(9, "dsm") + "\n", 4096);
        assertEquals(2, replies.size());
        assertTrue(replies.get(0).get("error").asText().contains("longer than 4096 bytes"));
        assertEquals(9, replies.get(1).get("id").asInt());
        assertEquals(PlanCli.OK, replies.get(1).get("exit").asInt());
    }

    @Test
    void badInputNamesTheProblemLikePlanCli() {
        JsonNode reply = read(PlanServer.answer("{\"scheduler\":\"otd\",\"input\":{\"cluster\":{}}}"));
        assertEquals(PlanCli.BAD_INPUT, reply.get("exit").asInt());
        assertTrue(reply.get("error").asText().startsWith("input: "), reply.toString());
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
