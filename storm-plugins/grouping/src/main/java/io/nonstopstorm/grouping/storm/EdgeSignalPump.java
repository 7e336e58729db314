package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.signal.LoadReportDelegation;
import io.nonstopstorm.grouping.signal.LoadSignals;
import io.nonstopstorm.grouping.signal.TaskLoad;
import io.nonstopstorm.grouping.signal.WorkerSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One edge's reader: reads the workers' documents, keeps the target component's task loads, lets the
 * {@link LoadReportDelegation} turn them into signals and publishes those to the sources' path. A bad
 * document is skipped (logged once per distinct problem); a failed read is retried by the next poll.
 */
final class EdgeSignalPump {
    private static final Logger LOG = LoggerFactory.getLogger(EdgeSignalPump.class);

    private final String edge;
    private final LoadReportSource source;
    private final String targetComponent;
    private final LoadReportDelegation delegation;
    private final LoadSignals sink;
    private final LongSupplier clockMs;
    private String lastProblem;

    EdgeSignalPump(String edge, LoadReportSource source, String targetComponent, LoadReportDelegation delegation,
                   LoadSignals sink, LongSupplier clockMs) {
        this.edge = edge;
        this.source = source;
        this.targetComponent = targetComponent;
        this.delegation = delegation;
        this.sink = sink;
        this.clockMs = clockMs;
    }

    /** One poll; returns the signals it published. */
    synchronized List<WorkerSignal> pump() {
        List<String> documents;
        try {
            documents = source.read();
        } catch (Exception e) {
            problem("cannot read load reports: " + e);
            return List.of();
        }
        List<TaskLoad> loads = new ArrayList<>();
        for (String document : documents) {
            try {
                loads.addAll(MetricsDocumentLoads.parse(document, targetComponent));
            } catch (IllegalArgumentException e) {
                problem("skipping a load report: " + e.getMessage());
            }
        }
        List<WorkerSignal> signals = delegation.observe(loads, clockMs.getAsLong());
        for (WorkerSignal s : signals) {
            sink.publish(s.worker(), s.signal());
        }
        if (!signals.isEmpty()) {
            LOG.info("CG edge {}: signals {}", edge, signals);
        }
        return signals;
    }

    private void problem(String message) {
        if (!message.equals(lastProblem)) {
            LOG.warn("CG edge {}: {}", edge, message);
            lastProblem = message;
        }
    }
}
