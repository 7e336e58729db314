package io.nonstopstorm.scheduling.metricsplane;

import io.nonstopstorm.scheduling.model.Outcome;

/**
 * Whether a document read from ZooKeeper may be used: it parses, sits where its own content says it
 * should ({@code <root>/<topology-id>/<host>-<port>}), and is fresh. Pure.
 */
public final class DocumentCheck {

    /** Documents older than this many publishing periods are stale: the worker stopped publishing. */
    public static final double DEFAULT_STALE_AFTER_PERIODS = 3;

    private DocumentCheck() {
    }

    public static Outcome<WorkerDocument> accept(RawDocument raw, String root, long nowMs, double staleAfterPeriods) {
        return WorkerDocumentParser.parse(raw.json()).flatMap(doc -> {
            String expected = root + "/" + doc.topologyId() + "/" + doc.workerName();
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
