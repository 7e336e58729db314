package io.nonstopstorm.wire;

import java.util.ArrayList;
import java.util.List;
import org.apache.storm.shade.net.minidev.json.parser.JSONParser;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * The JVM's reader of worker metrics documents (schema {@value #SCHEMA}, version {@value #VERSION};
 * storm-plugins/metrics/SCHEMA.md). Pure. It parses the JSON, checks the schema and version, and checks
 * every executor id by {@link ExecutorSpans} (user executors only: the documents leave Storm's out) before
 * anyone iterates a span; each consumer then takes the fields it uses through {@link DocumentFields}.
 * Fields it does not know are ignored (adding fields is not a version change). Every problem is a
 * {@link DocumentFields.Invalid} whose message starts with the field's path.
 */
public final class MetricsDocumentReader {

    public static final String SCHEMA = "nonstop.metrics.worker";
    public static final int VERSION = 1;

    /** An executor of the document with its checked id. */
    public record Executor(ExecutorId id, DocumentFields fields) {
    }

    private final DocumentFields root;
    private final List<Executor> executors;

    private MetricsDocumentReader(DocumentFields root, List<Executor> executors) {
        this.root = root;
        this.executors = List.copyOf(executors);
    }

    /** @throws DocumentFields.Invalid naming the first problem */
    public static MetricsDocumentReader read(String json) {
        Object parsed;
        try {
            parsed = new JSONParser(JSONParser.MODE_RFC4627).parse(json == null ? "" : json);
        } catch (ParseException | RuntimeException e) {
            throw new DocumentFields.Invalid("not JSON: " + e.getMessage());
        }
        DocumentFields root = new DocumentFields(parsed, "$");
        String schema = root.string("schema");
        if (!SCHEMA.equals(schema)) {
            throw new DocumentFields.Invalid("$.schema: expected " + SCHEMA + ", got " + schema);
        }
        long version = root.integer("version");
        if (version != VERSION) {
            throw new DocumentFields.Invalid("$.version: " + version + " is not supported (this reader knows "
                                             + VERSION + ")");
        }
        List<Executor> executors = new ArrayList<>();
        long tasks = 0;
        for (DocumentFields e : root.objects("executors")) {
            ExecutorId id = executorId(e);
            tasks += id.taskCount();
            executors.add(new Executor(id, e));
        }
        ExecutorSpans.checkTotal(tasks).ifPresent(over -> {
            throw new DocumentFields.Invalid("$.executors: " + over);
        });
        return new MetricsDocumentReader(root, executors);
    }

    private static ExecutorId executorId(DocumentFields e) {
        List<?> id = e.list("id");
        if (id.size() != 2 || !DocumentFields.isInteger(id.get(0)) || !DocumentFields.isInteger(id.get(1))) {
            throw new DocumentFields.Invalid(e.at("id") + ": expected [start, end], got " + id);
        }
        long start = ((Number) id.get(0)).longValue();
        long end = ((Number) id.get(1)).longValue();
        // On the longs as written: a forged end of 2^31-1 or beyond must not become a loop or wrap around.
        ExecutorSpans.check(start, end, false).ifPresent(bad -> {
            throw new DocumentFields.Invalid(e.at("id") + ": " + bad);
        });
        return new ExecutorId((int) start, (int) end);
    }

    /** The document's top-level object. */
    public DocumentFields root() {
        return root;
    }

    /** The worker's executors, ids checked, in document order. */
    public List<Executor> executors() {
        return executors;
    }
}
