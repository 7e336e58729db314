package io.nonstopstorm.scheduling.metricsplane;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.wire.DocumentFields;
import io.nonstopstorm.wire.MetricsDocumentReader;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The schedulers' view of a worker metrics document: {@link MetricsDocumentReader} (JSON, schema, version,
 * executor spans) and the fields the schedulers use. Pure. A document that fails any check, or lacks a
 * field used here, comes back as a failure naming the first problem.
 */
public final class WorkerDocumentParser {

    private WorkerDocumentParser() {
    }

    public static Outcome<WorkerDocument> parse(String json) {
        try {
            return Outcome.success(document(MetricsDocumentReader.read(json)));
        } catch (DocumentFields.Invalid e) {
            return Outcome.failure(e.getMessage());
        }
    }

    private static WorkerDocument document(MetricsDocumentReader doc) {
        DocumentFields d = doc.root();
        DocumentFields worker = d.object("worker");
        DocumentFields window = d.object("window");
        return new WorkerDocument(d.string("topology_id"), worker.string("host"), (int) worker.integer("port"),
                window.integer("end_ms"), (int) window.integer("period_s"), window.integer("seq"),
                worker.number("cpu_cores"), node(d.object("node")), executors(doc.executors()),
                traffic(d.objects("traffic")));
    }

    private static WorkerDocument.NodeSection node(DocumentFields n) {
        double rx = 0;
        double tx = 0;
        for (DocumentFields itf : n.objects("net")) {
            // Loopback traffic never crosses a link: only the node's real interfaces count as network use.
            if (!"lo".equals(itf.string("interface"))) {
                rx += itf.requiredNumber("rx_bytes_per_s");
                tx += itf.requiredNumber("tx_bytes_per_s");
            }
        }
        return new WorkerDocument.NodeSection((int) n.integer("cpu_count"), n.number("cpu_mhz"),
                n.number("cpu_busy_cores"), Math.max(rx, tx));
    }

    private static List<WorkerDocument.ExecutorCpu> executors(List<MetricsDocumentReader.Executor> items) {
        List<WorkerDocument.ExecutorCpu> out = new ArrayList<>();
        for (MetricsDocumentReader.Executor x : items) {
            DocumentFields e = x.fields();
            OptionalDouble thread = e.number("cpu_cores");
            OptionalDouble children = e.has("child_cpu_cores") ? e.number("child_cpu_cores") : OptionalDouble.of(0);
            // A known thread with unknown children counts the thread only: a lower bound beats no figure.
            OptionalDouble cores = thread.isPresent() ? OptionalDouble.of(thread.getAsDouble() + children.orElse(0))
                                                      : OptionalDouble.empty();
            // Only OTD reads it: a document without it has no queue figure rather than failing the other readers.
            OptionalLong queue = e.raw("queue_length") != null ? OptionalLong.of(e.nonNegativeInteger("queue_length"))
                                                               : OptionalLong.empty();
            out.add(new WorkerDocument.ExecutorCpu(x.id(), e.string("component"), cores, children.orElse(0), queue));
        }
        return out;
    }

    private static List<WorkerDocument.TaskFlow> traffic(List<DocumentFields> items) {
        List<WorkerDocument.TaskFlow> out = new ArrayList<>();
        for (DocumentFields f : items) {
            out.add(new WorkerDocument.TaskFlow((int) f.integer("src_task"), (int) f.integer("dst_task"),
                    f.requiredNumber("tuples_per_s")));
        }
        return out;
    }
}
