package io.nonstopstorm.metrics.hook;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import io.nonstopstorm.metrics.doc.MetricsDocument;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;

/** The user components of the topology, their tasks and inputs with groupings (the component DAG). */
public final class TopologyShapeReader {
    private TopologyShapeReader() {
    }

    public static List<MetricsDocument.Component> read(GeneralTopologyContext context) {
        StormTopology t = context.getRawTopology();
        List<MetricsDocument.Component> out = new ArrayList<>();
        if (t.get_spouts() != null) {
            for (String id : t.get_spouts().keySet()) {
                out.add(new MetricsDocument.Component(id, "spout", tasks(context, id), List.of()));
            }
        }
        if (t.get_bolts() != null) {
            for (Map.Entry<String, Bolt> b : t.get_bolts().entrySet()) {
                out.add(new MetricsDocument.Component(b.getKey(), "bolt", tasks(context, b.getKey()),
                    inputs(b.getValue().get_common().get_inputs())));
            }
        }
        out.sort(Comparator.comparing(MetricsDocument.Component::id));
        return List.copyOf(out);
    }

    private static List<Integer> tasks(GeneralTopologyContext context, String component) {
        List<Integer> tasks = new ArrayList<>(context.getComponentTasks(component));
        tasks.sort(null);
        return List.copyOf(tasks);
    }

    private static List<MetricsDocument.Input> inputs(Map<GlobalStreamId, Grouping> inputs) {
        List<MetricsDocument.Input> out = new ArrayList<>();
        if (inputs != null) {
            for (Map.Entry<GlobalStreamId, Grouping> e : inputs.entrySet()) {
                Grouping g = e.getValue();
                List<String> fields = g.is_set_fields() ? List.copyOf(g.get_fields()) : List.of();
                out.add(new MetricsDocument.Input(e.getKey().get_componentId(), e.getKey().get_streamId(),
                    g.getSetField().getFieldName(), fields));
            }
        }
        out.sort(Comparator.comparing(MetricsDocument.Input::component).thenComparing(MetricsDocument.Input::stream));
        return List.copyOf(out);
    }
}
