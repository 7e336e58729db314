package io.nonstopstorm.scheduling.metricsplane;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ExecutorSpans;
import io.nonstopstorm.wire.ZkPaths;
import java.util.Map;
import java.util.Set;

/**
 * Whether a document read from ZooKeeper may be used: it parses, sits where its own content says it
 * should ({@code <root>/<topology-id>/<host>-<port>}), names only executors its topology has (when
 * known), and is fresh. Pure.
 */
public final class DocumentCheck {

    /** Documents older than this many publishing periods are stale: the worker stopped publishing. */
    public static final double DEFAULT_STALE_AFTER_PERIODS = 3;

    private DocumentCheck() {
    }

    public static Outcome<WorkerDocument> accept(RawDocument raw, String root, long nowMs, double staleAfterPeriods) {
        return accept(raw, root, nowMs, staleAfterPeriods, Map.of());
    }

    /**
     * Also refuses a document naming an executor its topology does not have, when {@code executorsOf}
     * knows the topology's executors (Nimbus's view); documents of other topologies are not checked so.
     */
    public static Outcome<WorkerDocument> accept(RawDocument raw, String root, long nowMs, double staleAfterPeriods,
                                                 Map<String, Set<ExecutorId>> executorsOf) {
        return WorkerDocumentParser.parse(raw.json()).flatMap(doc -> {
            Set<ExecutorId> known = executorsOf.get(doc.topologyId());
            if (known != null) {
                for (WorkerDocument.ExecutorCpu e : doc.executors()) {
                    if (!known.contains(e.id())) {
                        return Outcome.failure(ExecutorSpans.unknown(e.id().start(), e.id().end(),
                                                                     doc.topologyId()));
                    }
                }
            }
            String expected = ZkPaths.metricsWorker(root, doc.topologyId(), doc.host(), doc.port());
            if (!expected.equals(raw.path())) {
                return Outcome.failure("document of " + doc.topologyId() + " " + doc.workerName() + " is stored under "
                                       + raw.path());
            }
            double ageS = (nowMs - doc.windowEndMs()) / 1000.0;
            if (ageS > staleAfterPeriods * Math.max(1, doc.periodS())) {
                return Outcome.failure(String.format("stale: window ended %.0f s ago (period %d s)", ageS, doc.periodS()));
            }
            return Outcome.success(doc);
        });
    }
}
