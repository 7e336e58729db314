package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.signal.TaskLoad;
import io.nonstopstorm.wire.DocumentFields;
import io.nonstopstorm.wire.MetricsDocumentReader;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Reads the per-task load of one component out of a worker metrics document through
 * {@link MetricsDocumentReader} (JSON, schema, version, executor spans): for every executor of the
 * component, each of its tasks gets the executor's {@code busy}, tuples executed in the window and queue
 * length (its tasks share one thread and one queue). A document that fails the reader's checks, or lacks a
 * field used here, is an {@link IllegalArgumentException} naming the problem; so is a task outside its
 * executor.
 */
public final class MetricsDocumentLoads {

    private MetricsDocumentLoads() {
    }

    public static List<TaskLoad> parse(String json, String component) {
        MetricsDocumentReader doc = MetricsDocumentReader.read(json);
        long pid = doc.root().object("worker").integer("pid");
        DocumentFields window = doc.root().object("window");
        long endMs = window.integer("end_ms");
        double seconds = window.requiredNumber("seconds");
        long seq = window.integer("seq");
        if (!(seconds > 0)) {
            throw new DocumentFields.Invalid(window.at("seconds") + ": must be positive, got " + seconds);
        }
        List<TaskLoad> out = new ArrayList<>();
        for (MetricsDocumentReader.Executor x : doc.executors()) {
            DocumentFields e = x.fields();
            if (!component.equals(e.raw("component"))) {
                continue;
            }
            OptionalDouble busy = e.optionalNumber("busy");
            long executed = Math.round(e.requiredNumber("executed_per_s") * seconds);
            Integer queue = e.raw("queue_length") == null ? null : (int) e.nonNegativeInteger("queue_length");
            for (Object task : e.list("tasks")) {
                if (!(task instanceof Integer || task instanceof Long) || !x.id().contains(((Number) task).intValue())
                    || ((Number) task).longValue() != ((Number) task).intValue()) {
                    throw new DocumentFields.Invalid(e.at("tasks") + ": expected task ids of the executor " + x.id()
                                                     + ", got " + task);
                }
                out.add(new TaskLoad(((Number) task).intValue(), pid, seq, endMs, seconds,
                                     busy.isPresent() ? busy.getAsDouble() : null, executed, queue));
            }
        }
        return out;
    }
}
