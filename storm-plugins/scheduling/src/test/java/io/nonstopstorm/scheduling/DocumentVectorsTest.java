package io.nonstopstorm.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.metricsplane.DocumentCheck;
import io.nonstopstorm.scheduling.metricsplane.RawDocument;
import io.nonstopstorm.scheduling.metricsplane.WorkerDocument;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.plan.MigrationPlan;
import io.nonstopstorm.scheduling.plan.MigrationPlanParser;
import io.nonstopstorm.scheduling.plan.PlanDecider;
import io.nonstopstorm.scheduling.plan.PlanDecision;
import io.nonstopstorm.wire.ExecutorId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shared vectors of tests/vectors/documents through Nimbus's readers: metrics documents through
 * {@link DocumentCheck} (with the topology's executors when the vector gives them), plans through
 * {@link MigrationPlanParser} and {@link PlanDecider}. The pytest reads the same files.
 */
class DocumentVectorsTest {
    static final Path VECTORS = Path.of("../../tests/vectors/documents");
    private static final String ROOT = "/nonstop/metrics";
    // The vectors' plan topology: spout 1, relay 2-3, sink 4, in two workers.
    private static final TopologyModel TOPO = TopologyModel.withParallelism("t-1",
        ComponentGraph.chain("spout", "relay", "sink"), Map.of("spout", 1, "relay", 2, "sink", 1), 2);
    private static final SlotId A = new SlotId("n1", 6700);
    private static final SlotId B = new SlotId("n2", 6700);
    private static final ClusterModel CLUSTER = new ClusterModel(
        List.of(Node.of("n1", List.of(6700, 6701)), Node.of("n2", List.of(6700, 6701))), Map.of(A, "t-1", B, "t-1"));
    private static final Placement CURRENT = Placement.of(Map.of(ExecutorId.single(1), A, ExecutorId.single(2), A,
                                                                 ExecutorId.single(3), B, ExecutorId.single(4), B));

    @SuppressWarnings("unchecked")
    static Stream<Path> vectors(String kind) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(VECTORS)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                if (kind.equals(read(p).get("kind"))) {
                    out.add(p);
                }
            }
        }
        return out.stream();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> read(Path p) throws IOException {
        return (Map<String, Object>) JSONValue.parse(Files.readString(p));
    }

    static Stream<Path> metricsVectors() throws IOException {
        return vectors("metrics");
    }

    static Stream<Path> planVectors() throws IOException {
        return vectors("plan");
    }

    @SuppressWarnings("unchecked")
    static Set<ExecutorId> executors(Map<String, Object> vector) {
        Set<ExecutorId> out = new TreeSet<>();
        for (List<Number> e : (List<List<Number>>) vector.get("topology_executors")) {
            out.add(new ExecutorId(e.get(0).intValue(), e.get(1).intValue()));
        }
        return out;
    }

    /** Empty when the reader accepts, else its reason. */
    static String verdict(Outcome<?> o) {
        return o instanceof Outcome.Failure<?> f ? f.reason() : "";
    }

    static void assertVerdict(Path p, Map<String, Object> v, String problem) {
        if ("accept".equals(v.get("verdict"))) {
            assertEquals("", problem, p.getFileName().toString());
        } else {
            assertTrue(problem.contains((String) v.get("reason")), p.getFileName() + ": expected " + v.get("reason")
                                                                     + ", got '" + problem + "'");
        }
    }

    @Test
    void thereAreVectorsOfEveryKind() throws IOException {
        assertTrue(metricsVectors().count() >= 5 && planVectors().count() >= 5);
    }

    @ParameterizedTest
    @MethodSource("metricsVectors")
    @SuppressWarnings("unchecked")
    void metricsDocumentsGetTheVectorsVerdict(Path p) throws IOException {
        Map<String, Object> v = read(p);
        Map<String, Object> doc = (Map<String, Object>) v.get("document");
        Map<String, Object> worker = (Map<String, Object>) doc.get("worker");
        String path = ROOT + "/" + doc.get("topology_id") + "/" + worker.get("host") + "-" + worker.get("port");
        long end = ((Number) ((Map<String, Object>) doc.get("window")).get("end_ms")).longValue();
        Map<String, Set<ExecutorId>> known = v.containsKey("topology_executors")
                                             ? Map.of((String) doc.get("topology_id"), executors(v)) : Map.of();
        Outcome<WorkerDocument> o = DocumentCheck.accept(new RawDocument(path, JSONValue.toJSONString(doc), 1), ROOT,
                                                         end, DocumentCheck.DEFAULT_STALE_AFTER_PERIODS, known);
        assertVerdict(p, v, verdict(o));
    }

    @ParameterizedTest
    @MethodSource("planVectors")
    void plansGetTheVectorsVerdict(Path p) throws IOException {
        Map<String, Object> v = read(p);
        assertEquals(new TreeSet<>(TOPO.executorIds()), executors(v), "the vectors' plan topology is this test's");
        Outcome<MigrationPlan> parsed = MigrationPlanParser.parse(JSONValue.toJSONString(v.get("document")));
        String problem = verdict(parsed);
        if (problem.isEmpty()) {
            PlanDecision d = PlanDecider.decide(TOPO, CLUSTER, CURRENT, parsed.orElseThrow(),
                                                Map.of("n1", "10.0.0.1", "n2", "10.0.0.2"));
            problem = d.status() == PlanDecision.Status.REJECTED ? d.reason() : "";
        }
        assertVerdict(p, v, problem);
    }
}
