package io.nonstopstorm.scheduling.storm;

import static io.nonstopstorm.scheduling.storm.StormFixtures.cluster;
import static io.nonstopstorm.scheduling.storm.StormFixtures.supervisors;
import static io.nonstopstorm.scheduling.storm.StormFixtures.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.SupervisorDetails;
import org.apache.storm.scheduler.Topologies;
import org.apache.storm.scheduler.TopologyDetails;
import org.junit.jupiter.api.Test;

class RandomStormSchedulerTest {

    private static final Map<String, SupervisorDetails> SUPS = supervisors(3, 3);

    private static Cluster placed(RandomStormScheduler s, TopologyDetails td) {
        s.prepare(new HashMap<>(), new StormMetricsRegistry());
        Cluster c = cluster(SUPS, new HashMap<>(), td);
        s.schedule(new Topologies(td), c);
        return c;
    }

    /** A random scheduler that adds each seed it draws with to {@code seeds}. */
    private static RandomStormScheduler recordingSeeds(List<Long> seeds) {
        return new RandomStormScheduler(seed -> {
            seeds.add(seed);
            return new Random(seed);
        });
    }

    @Test
    void placesWithTheConfiguredSeedAndSaysSo() {
        List<Long> seeds = new ArrayList<>();
        RandomStormScheduler s = recordingSeeds(seeds);
        TopologyDetails wc = wordCount("wc", 3, Map.of("nonstop.scheduler", "random", "nonstop.random.seed", 42));
        Cluster c = placed(s, wc);
        assertTrue(c.getUnassignedExecutors(wc).isEmpty());
        assertEquals(List.of(42L), seeds);
        assertTrue(c.getStatusMap().get("wc").startsWith("nonstop random: random placement (seed 42)"), c.getStatusMap().get("wc"));
        assertTrue(c.getAssignmentById("wc").getSlots().size() <= 3);
        assertEquals(c.getAssignmentById("wc").getExecutorToSlot(),
                placed(new RandomStormScheduler(), wc).getAssignmentById("wc").getExecutorToSlot(), "a seed repeats a placement");
    }

    @Test
    void withoutASeedTheTopologyIdSeedsItAsAValidValueOfTheKey() {
        List<Long> seeds = new ArrayList<>();
        RandomStormScheduler s = recordingSeeds(seeds);
        TopologyDetails wc = wordCount("wc-with-a-negative-hash-1", 2, Map.of("nonstop.scheduler", "random"));
        assertTrue(placed(s, wc).getUnassignedExecutors(wc).isEmpty());
        assertEquals(List.of(wc.getId().hashCode() & 0x7fffffffL), seeds);
        assertTrue(seeds.get(0) >= 0);
    }

    @Test
    void aBadSeedFallsBackToTheDefaultWithTheReason() {
        TopologyDetails wc = wordCount("wc", 2, Map.of("nonstop.scheduler", "random", "nonstop.random.seed", "soon"));
        Cluster c = placed(new RandomStormScheduler(), wc);
        assertTrue(c.getUnassignedExecutors(wc).isEmpty());
        assertTrue(c.getStatusMap().get("wc").contains("nonstop.random.seed must be a whole number"), c.getStatusMap().get("wc"));
    }
}
