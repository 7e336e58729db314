package io.nonstopstorm.workloads.multilang;

import io.nonstopstorm.workloads.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * Any topology declared with streamparse's DSL: {@value #SPEC} names the JSON spec that pycontrol
 * exports from the Topology class (its Flux dict); the spec's "config" gives conf defaults.
 */
public final class MultilangWorkload implements Workload {
    public static final String SPEC = "nonstop.multilang.spec";

    @Override
    public String name() {
        return "multilang";
    }

    @Override
    public String description() {
        return "a streamparse Topology exported as JSON (" + SPEC + "=<file>; " + SpecTopologyBuilder.PYTHON
            + "=<python with streamparse>); pycontrol does this for the topologies/ package";
    }

    @Override
    public Map<String, Object> defaults() {
        return Map.of();
    }

    @Override
    public Map<String, Object> defaultsFor(Map<String, Object> settings) {
        return read(settings).config();
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        return SpecTopologyBuilder.build(read(conf), conf);
    }

    @SuppressWarnings("unchecked")
    static TopologySpec read(Map<String, Object> conf) {
        Object path = conf.get(SPEC);
        if (path == null || path.toString().isBlank()) {
            throw new IllegalArgumentException(SPEC + " is not set (the JSON topology spec to build)");
        }
        Path p = Paths.get(path.toString());
        Object json;
        try {
            json = JSONValue.parseWithException(Files.readString(p, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read topology spec " + p + ": " + e.getMessage());
        } catch (ParseException e) {
            throw new IllegalArgumentException("topology spec " + p + " is not JSON: " + e.getMessage());
        }
        if (!(json instanceof Map)) {
            throw new IllegalArgumentException("topology spec " + p + " must be a JSON object");
        }
        return SpecParser.parse((Map<String, Object>) json);
    }
}
