package io.nonstopstorm.workloads.state;

import io.nonstopstorm.workloads.DescribedWorkload;
import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.feed.FeedSpout;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.spout.CheckPointState;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The state-size benchmark's topology: sentences (FeedSpout) -> keep (fields on the sentence), whose tasks
 * count their sentences and hold workload.state.bytes of ballast each. workload.keep.kind chooses how the
 * state is kept: "handoff" ({@link KeepBolt}, the suite's opt-in interface) or "stateful"
 * ({@link KeepStatefulBolt}, Storm's stateful bolt API with the topology's state provider).
 */
public final class StateSizeWorkload extends DescribedWorkload {
    public static final String BYTES = "workload.state.bytes";
    public static final String VALUE_BYTES = "workload.state.value.bytes";
    public static final String KIND = "workload.keep.kind";

    public StateSizeWorkload() {
        super("statesize-java", "sentences -> keep (2, fields sentence; counts plus " + BYTES + " of ballast per task), "
            + "2 workers; " + KIND + " handoff|stateful, " + VALUE_BYTES + ", workload.input, workload.rate, "
            + "workload.total, workload.par.keep",
            // The checkpoint spout's tuples cross workers carrying this enum; the clusters' Kryo needs it registered.
            Map.of(Config.TOPOLOGY_WORKERS, 2, Config.TOPOLOGY_KRYO_REGISTER, List.of(CheckPointState.Action.class.getName())));
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        Params p = new Params(conf);
        FeedSpout spout = new FeedSpout("lines", "sentence");
        spout.validate(conf);
        long bytes = p.longValue(BYTES, 1024);
        int valueBytes = p.intAtLeast(VALUE_BYTES, 64 * 1024, 1);
        if (bytes < 0) {
            throw new IllegalArgumentException(BYTES + " must be at least 0, got " + bytes);
        }
        Ballast.Spec spec = new Ballast.Spec(bytes, valueBytes);
        String kind = p.stringValue(KIND, "handoff");
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sentences", spout, p.parallelism("sentences", 1));
        int par = p.parallelism("keep", 2);
        Fields key = new Fields("sentence");
        switch (kind) {
            case "handoff" -> b.setBolt("keep", new KeepBolt(spec), par).fieldsGrouping("sentences", key)
                .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
            case "stateful" -> b.setBolt("keep", new KeepStatefulBolt(spec), par)
                .fieldsGrouping("sentences", key).addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
            default -> throw new IllegalArgumentException(KIND + " must be handoff or stateful, got '" + kind + "'");
        }
        return b.createTopology();
    }
}
