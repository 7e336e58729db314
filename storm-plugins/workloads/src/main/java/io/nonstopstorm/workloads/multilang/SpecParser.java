package io.nonstopstorm.workloads.multilang;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the dict that streamparse's {@code Topology.to_flux_dict(name)} returns (as JSON), with two
 * additions pycontrol makes: {@code parallelism} on Java components (streamparse leaves it out) and a
 * top-level {@code config} of topology conf defaults. Flux's shell wrappers are read structurally:
 * constructorArgs = [[command, script], [fields]], configMethods setNamedStream / addComponentConfig.
 */
public final class SpecParser {
    static final String FLUX_SHELL_BOLT = "org.apache.storm.flux.wrappers.bolts.FluxShellBolt";
    static final String FLUX_SHELL_SPOUT = "org.apache.storm.flux.wrappers.spouts.FluxShellSpout";
    /** What streamparse writes as the fields of a component without a default stream. */
    static final String NO_FIELDS = "NONE_BUT_FLUX_WANTS_SOMETHING_HERE";

    private SpecParser() {
    }

    public static TopologySpec parse(Map<String, Object> flux) {
        String name = str(flux.get("name"), "topology");
        List<ComponentSpec> spouts = components(flux.get("spouts"), true);
        List<ComponentSpec> bolts = components(flux.get("bolts"), false);
        if (spouts.isEmpty()) {
            throw new SpecException(null, "topology '" + name + "' has no spouts");
        }
        List<StreamSpec> streams = new ArrayList<>();
        for (Object o : list(flux.get("streams"), null, "streams")) {
            streams.add(stream(map(o, null, "a stream")));
        }
        Map<String, Object> config = flux.get("config") == null ? Map.of() : map(flux.get("config"), null, "config");
        return new TopologySpec(name, spouts, bolts, streams, config);
    }

    private static List<ComponentSpec> components(Object raw, boolean spout) {
        List<ComponentSpec> out = new ArrayList<>();
        for (Object o : list(raw, null, spout ? "spouts" : "bolts")) {
            Map<String, Object> m = map(o, null, "a component");
            String id = str(m.get("id"), null);
            if (id == null || id.isBlank()) {
                throw new SpecException(null, "a " + (spout ? "spout" : "bolt") + " without an id");
            }
            out.add(component(id, spout, m));
        }
        return out;
    }

    private static ComponentSpec component(String id, boolean spout, Map<String, Object> m) {
        String className = str(m.get("className"), null);
        if (className == null || className.isBlank()) {
            throw new SpecException(id, "no className");
        }
        int par = parallelism(id, m.get("parallelism"));
        List<Object> args = list(m.get("constructorArgs"), id, "constructorArgs");
        Map<String, Object> config = new LinkedHashMap<>();
        Map<String, List<String>> streams = new LinkedHashMap<>();
        boolean shell = className.equals(FLUX_SHELL_BOLT) || className.equals(FLUX_SHELL_SPOUT);
        if (shell && className.equals(FLUX_SHELL_SPOUT) != spout) {
            throw new SpecException(id, className + " listed as a " + (spout ? "spout" : "bolt"));
        }
        List<String> command = null;
        if (shell) {
            if (args.isEmpty()) {
                throw new SpecException(id, "a shell component needs constructorArgs [[command, script], [fields]]");
            }
            command = new ArrayList<>();
            for (Object part : list(args.get(0), id, "the command")) {
                command.addAll(List.of(str(part, "").trim().split("\\s+")));
            }
            command.removeIf(String::isEmpty);
            if (command.isEmpty()) {
                throw new SpecException(id, "empty command");
            }
            if (args.size() > 1) {
                List<String> f = strings(args.get(1), id, "output fields");
                if (!(f.size() == 1 && f.get(0).equals(NO_FIELDS))) {
                    streams.put("default", f);
                }
            }
        }
        for (Object o : list(m.get("configMethods"), id, "configMethods")) {
            Map<String, Object> cm = map(o, id, "a configMethod");
            String method = str(cm.get("name"), "");
            List<Object> margs = list(cm.get("args"), id, "configMethod args");
            if (method.equals("addComponentConfig") && margs.size() == 2) {
                config.put(str(margs.get(0), ""), margs.get(1));
            } else if (method.equals("setNamedStream") && margs.size() == 2 && shell) {
                streams.put(str(margs.get(0), ""), strings(margs.get(1), id, "stream fields"));
            } else {
                throw new SpecException(id, "unsupported configMethod " + method + margs);
            }
        }
        return new ComponentSpec(id, spout, command, shell ? null : className, shell ? List.of() : args, streams, par,
            config);
    }

    private static StreamSpec stream(Map<String, Object> m) {
        String from = str(m.get("from"), null);
        String to = str(m.get("to"), null);
        if (from == null || to == null) {
            throw new SpecException(to, "a stream needs 'from' and 'to'");
        }
        Map<String, Object> g = m.get("grouping") == null ? Map.of() : map(m.get("grouping"), to, "grouping");
        String type = str(g.get("type"), "SHUFFLE").toUpperCase(java.util.Locale.ROOT);
        String streamId = str(g.get("streamId"), "default");
        List<String> fields = g.get("args") == null ? List.of() : strings(g.get("args"), to, "grouping fields");
        String customClass = null;
        List<Object> customArgs = List.of();
        if (g.get("customClass") != null) {
            Map<String, Object> c = map(g.get("customClass"), to, "customClass");
            customClass = str(c.get("className"), null);
            customArgs = list(c.get("constructorArgs"), to, "customClass constructorArgs");
        }
        return new StreamSpec(from, to, streamId, type, fields, customClass, customArgs);
    }

    private static int parallelism(String id, Object raw) {
        if (raw == null) {
            return 1;
        }
        if (raw instanceof Number n && n.doubleValue() == Math.floor(n.doubleValue()) && n.intValue() >= 1) {
            return n.intValue();
        }
        throw new SpecException(id, "parallelism must be an integer >= 1, got " + raw
            + (raw instanceof Map ? " (resolve per-environment par dicts before export)" : ""));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o, String id, String what) {
        if (o instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new SpecException(id, what + " must be an object, got " + o);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o, String id, String what) {
        if (o == null) {
            return List.of();
        }
        if (o instanceof List<?> l) {
            return (List<Object>) l;
        }
        throw new SpecException(id, what + " must be a list, got " + o);
    }

    private static List<String> strings(Object o, String id, String what) {
        List<String> out = new ArrayList<>();
        for (Object x : list(o, id, what)) {
            if (!(x instanceof String s)) {
                throw new SpecException(id, what + " must be strings, got " + x);
            }
            out.add(s);
        }
        return out;
    }

    private static String str(Object o, String dflt) {
        return o == null ? dflt : o.toString();
    }
}
