package io.nonstopstorm.workloads.grouping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.grouping.storm.ConsistentGroupingStreamGrouping;
import io.nonstopstorm.grouping.storm.PartialKeyStreamGrouping;
import io.nonstopstorm.workloads.Workloads;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class GroupingCountWorkloadTest {
    private static Map<String, Object> conf(String grouping) {
        Map<String, Object> conf = new HashMap<>();
        conf.put("workload.input", "/tmp/words.txt");
        conf.put("workload.grouping", grouping);
        return conf;
    }

    private static Grouping keyedEdge(StormTopology t) {
        return t.get_bolts().get("count").get_common().get_inputs().values().iterator().next();
    }

    @Test
    void eachChoiceWiresItsGroupingOnTheKeyedEdge() {
        GroupingCountWorkload w = (GroupingCountWorkload) Workloads.byName("grouping-count").orElseThrow();
        Grouping kg = keyedEdge(w.build(conf("kg")));
        assertTrue(kg.is_set_fields());
        assertEquals(List.of("word"), kg.get_fields());
        assertTrue(keyedEdge(w.build(conf("SG"))).is_set_shuffle());
        Object pkg = Utils.javaDeserialize(keyedEdge(w.build(conf("pkg"))).get_custom_serialized(), Object.class);
        assertTrue(pkg instanceof PartialKeyStreamGrouping);
        Map<String, Object> cg = conf("cg");
        cg.put("workload.cg.slot.ms", 4000);
        Object grouping = Utils.javaDeserialize(keyedEdge(w.build(cg)).get_custom_serialized(), Object.class);
        assertTrue(grouping instanceof ConsistentGroupingStreamGrouping);
        StormTopology t = w.build(cg);
        assertTrue(t.get_bolts().get("aggregate").get_common().get_inputs().values().iterator().next().is_set_fields());
    }

    @Test
    void badSettingsAreClearErrors() {
        GroupingCountWorkload w = new GroupingCountWorkload();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.build(conf("hash")));
        assertTrue(e.getMessage().contains("workload.grouping"), e.getMessage());
        Map<String, Object> slow = conf("kg");
        slow.put("workload.slowdown", List.of(3.0, 0.5));
        e = assertThrows(IllegalArgumentException.class, () -> w.build(slow));
        assertTrue(e.getMessage().contains("workload.slowdown"), e.getMessage());
        Map<String, Object> signals = conf("cg");
        signals.put("workload.cg.signals", "carrier-pigeon");
        e = assertThrows(IllegalArgumentException.class, () -> w.build(signals));
        assertTrue(e.getMessage().contains("workload.cg.signals"), e.getMessage());
    }

    @Test
    void slowdownFactorsGoByTaskIndexAndComeAsAListOrCommaSeparated() {
        assertEquals(List.of(3.0, 2.5), GroupingCountWorkload.slowdown(List.of(3, 2.5)));
        assertEquals(List.of(3.0, 3.0), GroupingCountWorkload.slowdown("3, 3"));
        assertEquals(List.of(), GroupingCountWorkload.slowdown(null));
        assertEquals(3.0, KeyCostBolt.factorOf(List.of(3.0, 3.0), 1));
        assertEquals(1.0, KeyCostBolt.factorOf(List.of(3.0, 3.0), 2));
    }
}
