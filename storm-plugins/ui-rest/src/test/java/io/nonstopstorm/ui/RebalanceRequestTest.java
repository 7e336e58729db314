package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.apache.storm.generated.RebalanceOptions;
import org.junit.jupiter.api.Test;

class RebalanceRequestTest {

    @Test
    void emptyBodyOnlySetsTheWait() {
        RebalanceOptions o = RebalanceRequest.parse("", 7);
        assertEquals(7, o.get_wait_secs());
        assertFalse(o.is_set_num_workers());
        assertFalse(o.is_set_num_executors());
    }

    @Test
    void documentedBodySetsWorkersAndExecutors() {
        RebalanceOptions o = RebalanceRequest.parse(
            "{\"rebalanceOptions\": {\"numWorkers\": 2, \"executors\": {\"spout\": \"5\", \"split\": 7}}, \"callback\": \"foo\"}", 0);
        assertEquals(2, o.get_num_workers());
        assertEquals(Map.of("spout", 5, "split", 7), o.get_num_executors());
    }

    @Test
    void badInputIsA400() {
        assertEquals(400, assertThrows(ApiException.class, () -> RebalanceRequest.parse("{nope", 0)).status());
        assertEquals(400, assertThrows(ApiException.class,
            () -> RebalanceRequest.parse("{\"rebalanceOptions\": {\"numWorkers\": 0}}", 0)).status());
        assertEquals(400, assertThrows(ApiException.class,
            () -> RebalanceRequest.parse("{\"rebalanceOptions\": {\"executors\": {\"a\": \"x\"}}}", 0)).status());
        assertEquals(400, assertThrows(ApiException.class,
            () -> RebalanceRequest.parse("{\"rebalanceOptions\": {\"executors\": [1]}}", 0)).status());
    }
}
