package io.nonstopstorm.metrics;

import java.util.List;
import java.util.function.LongSupplier;
import io.nonstopstorm.metrics.core.QueueProbe;
import io.nonstopstorm.metrics.cpu.ThreadSource;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import io.nonstopstorm.metrics.proc.ProcFs;
import io.nonstopstorm.metrics.publish.DocumentSink;

/**
 * What a worker's metrics loop needs from its environment; the Storm adapter builds the real one, tests
 * pass fakes. {@code processCpuNanos} returns the JVM's CPU time so far (-1 if unknown).
 */
public record WorkerSetup(String topologyId, int port, MetricsSettings settings, long pid, long startedAtMs,
                          List<MetricsDocument.Component> components, QueueProbe queues, DocumentSink sink,
                          ThreadSource threads, ProcFs proc, String procSelf, LongSupplier processCpuNanos,
                          LongSupplier nanoClock, LongSupplier wallClockMs) {
}
