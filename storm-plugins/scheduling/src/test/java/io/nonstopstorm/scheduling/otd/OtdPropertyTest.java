package io.nonstopstorm.scheduling.otd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Seeded random clusters: the invariants of every OTD decision, and convergence of repeated rounds. */
class OtdPropertyTest {

    private static OtdSnapshot random(Random r, int nodes, int workersPerNode, int executors, double density,
                                      boolean loaded) {
        List<WorkerLoad> ws = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            for (int k = 0; k < workersPerNode; k++) {
                double cpu = loaded ? r.nextDouble() : 0.05 + 0.4 * r.nextDouble();
                ws.add(new WorkerLoad("n" + n + "w" + k, "n" + n, cpu, r.nextInt(loaded ? 3000 : 100)));
            }
        }
        Map<String, String> place = new HashMap<>();
        for (int e = 0; e < executors; e++) {
            place.put(String.format("e%03d", e), ws.get(e < ws.size() ? e : r.nextInt(ws.size())).worker());
        }
        Map<OtdSnapshot.Pair, Double> traffic = new HashMap<>();
        List<String> ids = new ArrayList<>(place.keySet());
        for (String a : ids) {
            for (String b : ids) {
                if (!a.equals(b) && r.nextDouble() < density) {
                    traffic.put(new OtdSnapshot.Pair(a, b), (double) r.nextInt(200));
                }
            }
        }
        return new OtdSnapshot(ws, place, traffic);
    }

    /** Total inter-node traffic, counted directly from the placement: the ground truth ASC must match. */
    private static double interNode(OtdSnapshot s) {
        Map<String, String> node = new HashMap<>();
        s.workers().forEach(w -> node.put(w.worker(), w.node()));
        double sum = 0;
        for (var t : s.traffic().entrySet()) {
            String a = node.get(s.executorToWorker().get(t.getKey().from()));
            String b = node.get(s.executorToWorker().get(t.getKey().to()));
            if (!a.equals(b)) {
                sum += t.getValue();
            }
        }
        return sum;
    }

    private static OtdSnapshot apply(OtdSnapshot s, OtdDecision.Move m) {
        Map<String, String> place = new HashMap<>(s.executorToWorker());
        place.put(m.executor(), m.toWorker());
        return new OtdSnapshot(s.workers(), place, s.traffic());
    }

    @Test
    void everyMoveIsLegalAndItsAscIsTheExactInterNodeSaving() {
        Random r = new Random(20261121L);
        int moves = 0;
        for (int i = 0; i < 500; i++) {
            OtdSnapshot s = random(r, 2 + r.nextInt(4), 1 + r.nextInt(4), 4 + r.nextInt(40), 0.1, r.nextBoolean());
            OtdParams p = new OtdParams(0.8, 0.5, 1000, 100, r.nextInt(50), r.nextBoolean() ? 0 : 6, false,
                r.nextBoolean());
            OtdDecision d = Otd.decide(s, p, Set.of());
            if (!(d instanceof OtdDecision.Move m)) {
                continue;
            }
            moves++;
            Map<String, WorkerLoad> byId = s.workersById();
            WorkerLoad target = byId.get(m.toWorker());
            assertEquals(LoadClass.LOW, LoadClass.of(target, p), "target must be LOW: " + m);
            assertNotEquals(m.fromWorker(), m.toWorker());
            assertEquals(s.executorToWorker().get(m.executor()), m.fromWorker());
            Map<String, Integer> counts = s.executorCounts();
            assertTrue(counts.get(m.fromWorker()) > 1, "never empties a worker");
            assertTrue(p.maxExecutorsPerWorker() == 0 || counts.get(m.toWorker()) < p.maxExecutorsPerWorker(),
                "never onto a full worker");
            double saved = interNode(s) - interNode(apply(s, m));
            assertEquals(m.asc(), saved, 1e-6, "ASC equals the measured inter-node saving");
            if (m.paperCase() == 3) {
                assertTrue(m.asc() > p.thresholdAsc());
                assertEquals(LoadClass.LOW, LoadClass.of(target, p));
            } else {
                assertEquals(1, m.paperCase());
                assertEquals(LoadClass.HIGH, LoadClass.of(byId.get(m.fromWorker()), p));
                assertTrue(p.relieveWithinNode() || !target.node().equals(byId.get(m.fromWorker()).node()),
                    "relieves onto another node unless relieveWithinNode: " + m);
            }
        }
        assertTrue(moves > 100, "the generator must exercise moves, got " + moves);
    }

    @Test
    void communicationRoundsConvergeWithoutOscillating() {
        Random r = new Random(7L);
        for (int i = 0; i < 50; i++) {
            OtdSnapshot s = random(r, 3, 2, 24, 0.15, false);
            OtdParams p = new OtdParams(0.8, 0.5, 1000, 100, 1.0, 0);
            double before = interNode(s);
            Set<String> seen = new HashSet<>();
            int rounds = 0;
            OtdDecision d;
            while ((d = Otd.decide(s, p, Set.of())) instanceof OtdDecision.Move m) {
                // Each round strictly lowers inter-node traffic, so no placement can come back.
                double prev = interNode(s);
                s = apply(s, m);
                assertTrue(interNode(s) < prev);
                assertTrue(seen.add(new java.util.TreeMap<>(s.executorToWorker()).toString()), "placement revisited");
                assertTrue(++rounds < 1000, "did not converge");
            }
            assertTrue(interNode(s) <= before);
        }
    }
}
