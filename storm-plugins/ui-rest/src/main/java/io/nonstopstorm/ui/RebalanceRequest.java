package io.nonstopstorm.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.storm.generated.RebalanceOptions;

/**
 * Reads the optional JSON body of POST /api/v1/topology/{id}/rebalance/{wait}, as documented for Storm's UI:
 * {"rebalanceOptions": {"numWorkers": 2, "executors": {"spout": 4, "count": "10"}}}.
 */
public final class RebalanceRequest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RebalanceRequest() {
    }

    /** Options for Nimbus; an empty body asks only for the wait. Bad JSON or counts are a 400. */
    public static RebalanceOptions parse(String body, int waitSecs) {
        RebalanceOptions options = new RebalanceOptions();
        options.set_wait_secs(waitSecs);
        if (body == null || body.isBlank()) {
            return options;
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ApiException(400, "rebalance body is not JSON: " + e.getOriginalMessage());
        }
        JsonNode opts = root == null ? null : root.get("rebalanceOptions");
        if (opts == null || opts.isNull()) {
            return options;
        }
        if (!opts.isObject()) {
            throw new ApiException(400, "rebalanceOptions must be a JSON object");
        }
        JsonNode workers = opts.get("numWorkers");
        if (workers != null && !workers.isNull()) {
            options.set_num_workers(positiveCount(workers, "numWorkers"));
        }
        JsonNode executors = opts.get("executors");
        if (executors != null && !executors.isNull()) {
            if (!executors.isObject()) {
                throw new ApiException(400, "rebalanceOptions.executors must map component ids to counts");
            }
            Map<String, Integer> counts = new HashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = executors.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                counts.put(e.getKey(), positiveCount(e.getValue(), "executors." + e.getKey()));
            }
            options.set_num_executors(counts);
        }
        return options;
    }

    /** A count given as a number or a numeric string (the documented example mixes both). */
    private static int positiveCount(JsonNode node, String name) {
        String text = node.asText();
        try {
            int n = node.isIntegralNumber() ? node.intValue() : Integer.parseInt(text.trim());
            if (n > 0 && (!node.isIntegralNumber() || node.canConvertToInt())) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ApiException(400, name + " must be a positive integer, got " + node);
    }
}
