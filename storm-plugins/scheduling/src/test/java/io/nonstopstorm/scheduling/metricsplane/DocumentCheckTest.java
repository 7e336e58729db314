package io.nonstopstorm.scheduling.metricsplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.scheduling.model.Outcome;
import org.junit.jupiter.api.Test;

class DocumentCheckTest {

    private static final String ROOT = "/nonstop/metrics";
    private static final String PATH = ROOT + "/keyed-3-1767225600/127.0.0.11-27121";
    private static final long END = 1767225660000L;

    @Test
    void aDocumentIsUsableForThreePeriodsAfterItsWindow() {
        RawDocument raw = new RawDocument(PATH, MetricsFixture.json(), 7);
        assertEquals("keyed-3-1767225600", DocumentCheck.accept(raw, ROOT, END + 15_000, 3).orElseThrow().topologyId());
        Outcome<WorkerDocument> old = DocumentCheck.accept(raw, ROOT, END + 15_001, 3);
        assertTrue(old.reasonOrNull().startsWith("stale: window ended 15 s ago (period 5 s)"), old.reasonOrNull());
    }

    @Test
    void aDocumentStoredUnderAnotherWorkerIsRejected() {
        RawDocument raw = new RawDocument(ROOT + "/keyed-3-1767225600/127.0.0.12-27121", MetricsFixture.json(), 7);
        Outcome<WorkerDocument> o = DocumentCheck.accept(raw, ROOT, END, 3);
        assertTrue(o.reasonOrNull().contains("is stored under " + raw.path()), o.reasonOrNull());
    }

    @Test
    void parseFailuresComeThrough() {
        Outcome<WorkerDocument> o = DocumentCheck.accept(new RawDocument(PATH, "{", 1), ROOT, END, 3);
        assertTrue(o.reasonOrNull().startsWith("not JSON"), o.reasonOrNull());
    }
}
