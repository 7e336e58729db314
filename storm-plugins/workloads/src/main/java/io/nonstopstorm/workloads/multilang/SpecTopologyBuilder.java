package io.nonstopstorm.workloads.multilang;

import io.nonstopstorm.workloads.ConfValidating;
import io.nonstopstorm.workloads.Params;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.grouping.CustomStreamGrouping;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.IBasicBolt;
import org.apache.storm.topology.IComponent;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.IRichSpout;
import org.apache.storm.topology.OutputFieldsGetter;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.BasicBoltExecutor;
import org.apache.storm.tuple.Fields;

/**
 * Turns a {@link TopologySpec} into a Storm topology without Flux: shell components become
 * {@link DeclaredShellBolt}/{@link DeclaredShellSpout} running {@code <python> -m streamparse.run
 * mod.Class}, Java components are instantiated by reflection, and every subscription gets its
 * grouping. Everything is checked first (ids, streams, grouping fields, Java classes, component
 * settings), and a problem is reported naming the component.
 *
 * <p>Conf: {@value #PYTHON} = absolute path of the interpreter that has streamparse installed
 * (replaces streamparse's {@code streamparse_run}); workload.par.&lt;component&gt; overrides a
 * component's parallelism.
 */
public final class SpecTopologyBuilder {
    public static final String PYTHON = "nonstop.python";
    static final String STREAMPARSE_RUN = "streamparse_run";

    private SpecTopologyBuilder() {
    }

    public static StormTopology build(TopologySpec spec, Map<String, Object> conf) {
        Params params = new Params(conf);
        Map<String, IComponent> instances = new LinkedHashMap<>();
        Map<String, ComponentSpec> byId = new HashMap<>();
        for (ComponentSpec c : concat(spec.spouts(), spec.bolts())) {
            if (byId.put(c.id(), c) != null) {
                throw new SpecException(c.id(), "declared twice");
            }
            instances.put(c.id(), instantiate(c, conf));
        }
        Map<String, Map<String, List<String>>> outputs = new HashMap<>();
        instances.forEach((id, inst) -> outputs.put(id, declaredStreams(id, inst)));
        Map<String, List<StreamSpec>> inputs = new HashMap<>();
        for (StreamSpec s : spec.streams()) {
            checkStream(s, byId, outputs);
            inputs.computeIfAbsent(s.to(), k -> new ArrayList<>()).add(s);
        }
        TopologyBuilder b = new TopologyBuilder();
        for (ComponentSpec c : spec.spouts()) {
            b.setSpout(c.id(), (IRichSpout) instances.get(c.id()), parallelism(params, c));
        }
        for (ComponentSpec c : spec.bolts()) {
            List<StreamSpec> in = inputs.getOrDefault(c.id(), List.of());
            if (in.isEmpty()) {
                throw new SpecException(c.id(), "bolt has no input stream");
            }
            IComponent inst = instances.get(c.id());
            BoltDeclarer d = inst instanceof IBasicBolt basic
                ? b.setBolt(c.id(), new BasicBoltExecutor(basic), parallelism(params, c))
                : b.setBolt(c.id(), (IRichBolt) inst, parallelism(params, c));
            for (StreamSpec s : in) {
                group(d, s);
            }
        }
        return b.createTopology();
    }

    private static int parallelism(Params params, ComponentSpec c) {
        try {
            return params.parallelism(c.id(), c.parallelism());
        } catch (IllegalArgumentException e) {
            throw new SpecException(c.id(), e.getMessage());
        }
    }

    private static IComponent instantiate(ComponentSpec c, Map<String, Object> conf) {
        IComponent inst;
        if (c.shell()) {
            List<String> command = command(c, conf);
            inst = c.spout() ? new DeclaredShellSpout(command, c.streams(), c.config())
                : new DeclaredShellBolt(command, c.streams(), c.config());
        } else if (c.spout()) {
            inst = JavaObjects.create(c.id(), c.className(), c.constructorArgs(), IRichSpout.class);
        } else {
            Object o = JavaObjects.create(c.id(), c.className(), c.constructorArgs(), IComponent.class);
            if (!(o instanceof IRichBolt) && !(o instanceof IBasicBolt)) {
                throw new SpecException(c.id(), c.className() + " is neither an IRichBolt nor an IBasicBolt");
            }
            inst = (IComponent) o;
        }
        if (inst instanceof ConfValidating v) {
            try {
                v.validate(conf);
            } catch (IllegalArgumentException e) {
                throw new SpecException(c.id(), e.getMessage());
            }
        }
        return inst;
    }

    static List<String> command(ComponentSpec c, Map<String, Object> conf) {
        List<String> cmd = new ArrayList<>();
        if (c.command().get(0).equals(STREAMPARSE_RUN)) {
            Object python = conf.get(PYTHON);
            if (python == null || python.toString().isBlank()) {
                throw new SpecException(c.id(), PYTHON + " is not set: give the absolute path of a Python "
                    + "interpreter with streamparse installed on every worker host");
            }
            cmd.addAll(List.of(python.toString(), "-m", "streamparse.run"));
            cmd.addAll(c.command().subList(1, c.command().size()));
        } else {
            cmd.addAll(c.command());
        }
        return cmd;
    }

    private static Map<String, List<String>> declaredStreams(String id, IComponent inst) {
        OutputFieldsGetter getter = new OutputFieldsGetter();
        try {
            inst.declareOutputFields(getter);
        } catch (RuntimeException e) {
            throw new SpecException(id, "declaring its outputs failed: " + e.getMessage());
        }
        Map<String, List<String>> out = new HashMap<>();
        getter.getFieldsDeclaration().forEach((stream, decl) -> out.put(stream, decl.get_output_fields()));
        return out;
    }

    private static void checkStream(StreamSpec s, Map<String, ComponentSpec> byId,
                                    Map<String, Map<String, List<String>>> outputs) {
        ComponentSpec to = byId.get(s.to());
        if (to == null) {
            throw new SpecException(s.to(), "subscribes but is not declared");
        }
        if (to.spout()) {
            throw new SpecException(s.to(), "is a spout and cannot subscribe to '" + s.from() + "'");
        }
        if (!byId.containsKey(s.from())) {
            throw new SpecException(s.to(), "subscribes to unknown component '" + s.from() + "'");
        }
        List<String> fields = outputs.get(s.from()).get(s.streamId());
        if (fields == null) {
            throw new SpecException(s.to(), "subscribes to stream '" + s.streamId() + "' of '" + s.from()
                + "', which declares only " + outputs.get(s.from()).keySet());
        }
        if (s.grouping().equals("FIELDS")) {
            if (s.fields().isEmpty() || !fields.containsAll(s.fields())) {
                throw new SpecException(s.to(), "fields grouping on " + s.fields() + " but '" + s.from()
                    + "' stream '" + s.streamId() + "' has fields " + fields);
            }
        }
    }

    private static void group(BoltDeclarer d, StreamSpec s) {
        String from = s.from();
        String stream = s.streamId();
        switch (s.grouping()) {
            case "SHUFFLE" -> d.shuffleGrouping(from, stream);
            case "LOCAL_OR_SHUFFLE" -> d.localOrShuffleGrouping(from, stream);
            case "FIELDS" -> d.fieldsGrouping(from, stream, new Fields(s.fields()));
            case "GLOBAL" -> d.globalGrouping(from, stream);
            case "ALL" -> d.allGrouping(from, stream);
            case "NONE" -> d.noneGrouping(from, stream);
            case "DIRECT" -> d.directGrouping(from, stream);
            case "CUSTOM" -> {
                if (s.customClass() == null) {
                    throw new SpecException(s.to(), "CUSTOM grouping without customClass");
                }
                d.customGrouping(from, stream,
                    JavaObjects.create(s.to(), s.customClass(), s.customArgs(), CustomStreamGrouping.class));
            }
            default -> throw new SpecException(s.to(), "unknown grouping type '" + s.grouping() + "' on '"
                + from + "'");
        }
    }

    private static List<ComponentSpec> concat(List<ComponentSpec> a, List<ComponentSpec> b) {
        List<ComponentSpec> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
