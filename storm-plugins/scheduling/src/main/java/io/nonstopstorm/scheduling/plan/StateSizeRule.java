package io.nonstopstorm.scheduling.plan;

import io.nonstopstorm.migration.state.HandoffLimits;
import io.nonstopstorm.wire.DocumentFields;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.MetricsDocumentReader;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * F2 before the switch (docs/state-handoff.md): a live move of an executor whose state, as its worker last
 * measured and published it ({@code executors[].state} of the metrics document), is over the topology's
 * {@value HandoffLimits#MAX_BYTES} is refused, so the state stays with the running instance. Without this
 * the source would find the state too large at the routing switch, when the new instance already runs,
 * and that instance would start empty. A state never measured (a new worker, measuring off) is not refused
 * here: the source's own check at the switch still applies. Pure.
 */
public final class StateSizeRule {

    /**
     * An executor's state as last measured.
     *
     * @param bytes        serialised size; when {@code overLimit}, the limit the worker measured against plus one
     * @param measuredAtMs when the worker measured it
     * @param worker       the publishing worker, {@code host-port}
     */
    public record Measured(long bytes, boolean overLimit, long measuredAtMs, String worker) {
    }

    private StateSizeRule() {
    }

    /**
     * The newest measurement of each executor over the topology's worker documents (JSON). A document that
     * does not parse, or whose {@code state} is malformed, adds nothing: it cannot refuse a move.
     */
    public static Map<ExecutorId, Measured> measured(Collection<String> documents) {
        Map<ExecutorId, Measured> out = new HashMap<>();
        for (String json : documents) {
            MetricsDocumentReader doc;
            String worker;
            try {
                doc = MetricsDocumentReader.read(json);
                DocumentFields w = doc.root().object("worker");
                worker = w.string("host") + "-" + w.integer("port");
            } catch (DocumentFields.Invalid e) {
                continue;
            }
            for (MetricsDocumentReader.Executor e : doc.executors()) {
                if (!e.fields().has("state")) {
                    continue;
                }
                try {
                    DocumentFields s = e.fields().object("state");
                    Object over = s.raw("over_limit");
                    if (!(over instanceof Boolean)) {
                        continue;
                    }
                    Measured m = new Measured(s.nonNegativeInteger("bytes"), (Boolean) over,
                                              s.nonNegativeInteger("measured_at_ms"), worker);
                    out.merge(e.id(), m, (a, b) -> b.measuredAtMs() > a.measuredAtMs() ? b : a);
                } catch (DocumentFields.Invalid bad) {
                    // a malformed state says nothing about the size
                }
            }
        }
        return out;
    }

    /**
     * Why these moves are refused (the first executor, by id, whose state is over the limit), or empty.
     *
     * @param maxBytes the topology's {@value HandoffLimits#MAX_BYTES}
     */
    public static Optional<String> refusal(Collection<ExecutorId> moved, Function<ExecutorId, String> componentOf,
                                           Map<ExecutorId, Measured> measured, long maxBytes) {
        for (ExecutorId e : new TreeSet<>(moved)) {
            Measured m = measured.get(e);
            if (m == null || !(m.overLimit() || m.bytes() > maxBytes)) {
                continue;
            }
            String size = m.overLimit() ? "more than " + (m.bytes() - 1) + " bytes" : m.bytes() + " bytes";
            return Optional.of("executor [" + e.start() + "," + e.end() + "] (" + componentOf.apply(e)
                               + ") is not moved live: its state is " + size + " (measured by worker " + m.worker()
                               + " at " + Instant.ofEpochMilli(m.measuredAtMs()) + "), over " + HandoffLimits.MAX_BYTES
                               + " = " + maxBytes + ": the new instance would start without it. It stays where it "
                               + "is; raise the limit, or move it with Storm's rebalance");
        }
        return Optional.empty();
    }
}
