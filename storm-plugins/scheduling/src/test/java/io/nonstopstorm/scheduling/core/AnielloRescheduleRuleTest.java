package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.LoadSample;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.wire.ExecutorId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnielloRescheduleRuleTest {

    private static final TopologyModel TOPO = TopologyModel.withParallelism("t",
            ComponentGraph.chain("a", "b"), Map.of("a", 1, "b", 2), 2);
    private static final ExecutorId A = ExecutorId.single(1);
    private static final ExecutorId B1 = ExecutorId.single(2);
    private static final ExecutorId B2 = ExecutorId.single(3);
    private static final ClusterModel CLUSTER = ClusterModel.of(List.of(
            Node.of("n1", List.of(1, 2), 100), Node.of("n2", List.of(1, 2), 100)));
    private static final SlotId N1 = new SlotId("n1", 1);
    private static final SlotId N1B = new SlotId("n1", 2);
    private static final SlotId N2 = new SlotId("n2", 1);
    /** A sends 100 to B1 and 11 to B2. */
    private static final TrafficMatrix TRAFFIC = TrafficMatrix.builder().add(A, B1, 100).add(A, B2, 11).build();

    private final AnielloRescheduleRule rule = new AnielloRescheduleRule(10, 30_000, Map.of("n2", 5_000L));

    @Test
    void appliesOnlyWhenTrafficDropsByMoreThanR() {
        Placement current = Placement.of(Map.of(A, N1, B1, N2, B2, N1B));      // 100 crosses
        Placement better = Placement.of(Map.of(A, N1, B1, N1B, B2, N2));       // 11 crosses: -89 %
        RescheduleDecision d = rule.decide(TOPO, CLUSTER, TRAFFIC, ExecutorLoads.none(), current, better, Map.of(), 0);
        assertTrue(d.apply(), d.reason());
        assertEquals(100, d.currentInterNodeTraffic(), 1e-9);
        assertEquals(11, d.candidateInterNodeTraffic(), 1e-9);

        // 100 -> 90 is exactly 10 %: not "more than" R.
        TrafficMatrix t = TrafficMatrix.builder().add(A, B1, 100).add(A, B2, 90).build();
        RescheduleDecision tie = rule.decide(TOPO, CLUSTER, t, ExecutorLoads.none(), current, better, Map.of(), 0);
        assertFalse(tie.apply(), tie.reason());
        // 100 -> 89.9 is more than 10 %.
        TrafficMatrix t2 = TrafficMatrix.builder().add(A, B1, 100).add(A, B2, 89.9).build();
        assertTrue(rule.decide(TOPO, CLUSTER, t2, ExecutorLoads.none(), current, better, Map.of(), 0).apply());
    }

    @Test
    void sameCandidateIsKept() {
        Placement p = Placement.of(Map.of(A, N1, B1, N2, B2, N1B));
        RescheduleDecision d = rule.decide(TOPO, CLUSTER, TRAFFIC, ExecutorLoads.none(), p, p, Map.of(), 0);
        assertFalse(d.apply());
    }

    @Test
    void unplacedTopologyAlwaysTakesTheCandidate() {
        Placement partial = Placement.of(Map.of(A, N1));
        Placement full = Placement.of(Map.of(A, N1, B1, N1, B2, N2));
        assertTrue(rule.decide(TOPO, CLUSTER, TRAFFIC, ExecutorLoads.none(), partial, full, Map.of(), 0).apply());
    }

    @Test
    void overloadCountsOnlyAfterTheNodesWindowWithInjectedTime() {
        // n1 has the default window 30 s; over capacity (100) since t = 10 s.
        Map<String, List<LoadSample>> history = Map.of("n1", List.of(
                new LoadSample(0, 50), new LoadSample(10_000, 120), new LoadSample(25_000, 130), new LoadSample(40_000, 101)));
        assertEquals(List.of(), rule.overloadedNodes(CLUSTER, history, 40_000));   // 30 s, not more
        assertEquals(List.of("n1"), rule.overloadedNodes(CLUSTER, history, 40_001));
        // Samples after "now" are ignored: at t = 20 s it has been over for 10 s only.
        assertEquals(List.of(), rule.overloadedNodes(CLUSTER, history, 20_000));

        // A dip below capacity restarts the count; n2 has its own 5 s window.
        Map<String, List<LoadSample>> dip = Map.of(
                "n1", List.of(new LoadSample(0, 150), new LoadSample(35_000, 90), new LoadSample(36_000, 150)),
                "n2", List.of(new LoadSample(30_000, 100), new LoadSample(36_000, 100)));
        assertEquals(List.of("n2"), rule.overloadedNodes(CLUSTER, dip, 36_000));
    }

    @Test
    void overloadTriggersOnlyIfTheCandidateRelievesTheNode() {
        ExecutorLoads loads = ExecutorLoads.of(Map.of(A, 60.0, B1, 30.0, B2, 30.0));
        Map<String, List<LoadSample>> history = Map.of("n1", List.of(new LoadSample(0, 120), new LoadSample(60_000, 120)));
        Placement current = Placement.of(Map.of(A, N1, B1, N1, B2, N1B));    // n1 predicted 120; 0 cross
        Placement relieving = Placement.of(Map.of(A, N1, B1, N1, B2, N2));   // n1 predicted 90; 11 cross
        Placement notRelieving = Placement.of(Map.of(A, N1, B1, N1B, B2, N1)); // same node loads
        RescheduleDecision yes = rule.decide(TOPO, CLUSTER, TRAFFIC, loads, current, relieving, history, 60_000);
        assertTrue(yes.apply(), yes.reason());
        assertEquals(List.of("n1"), yes.overloadedNodes());
        RescheduleDecision no = rule.decide(TOPO, CLUSTER, TRAFFIC, loads, current, notRelieving, history, 60_000);
        assertFalse(no.apply(), no.reason());
    }

    @Test
    void periodAndParameterChecks() {
        assertTrue(AnielloRescheduleRule.periodElapsed(-1, 0, 60_000));
        assertFalse(AnielloRescheduleRule.periodElapsed(1_000, 60_999, 60_000));
        assertTrue(AnielloRescheduleRule.periodElapsed(1_000, 61_000, 60_000));
        assertThrows(IllegalArgumentException.class, () -> new AnielloRescheduleRule(101, 0, Map.of()));
    }
}
