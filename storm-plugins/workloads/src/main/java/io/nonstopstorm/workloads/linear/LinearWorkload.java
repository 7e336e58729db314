package io.nonstopstorm.workloads.linear;

import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.DescribedWorkload;
import io.nonstopstorm.workloads.feed.FeedSpout;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The N-Storm paper's linear two-bolt template (its Fig. 7) in Java: source (synthetic keys at a
 * target rate) -> bolt1 (12, shuffle) -> bolt2 (24, fields on key), 8 workers, with a configurable
 * CPU cost per tuple in each bolt and tuple size. Same ids and settings as topologies/linear.
 */
public final class LinearWorkload extends DescribedWorkload {
    public LinearWorkload() {
        super("linear-java", "linear template in Java: source -> bolt1 (12) -> bolt2 (24, fields key), 8 workers; "
            + "workload.cost1.us, workload.cost2.us (CPU per tuple), workload.tuple.bytes, workload.keys, workload.rate",
            Map.of(Config.TOPOLOGY_WORKERS, 8, "workload.tuple.bytes", 100));
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        Params p = new Params(conf);
        FeedSpout spout = new FeedSpout("generated", "key,payload");
        spout.validate(conf);
        int bytes = p.intAtLeast("workload.tuple.bytes", 100, 1);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("source", spout, p.parallelism("source", 1));
        b.setBolt("bolt1", new StageBolt(p.longValue("workload.cost1.us", 100), bytes), p.parallelism("bolt1", 12))
            .shuffleGrouping("source");
        b.setBolt("bolt2", new StageBolt(p.longValue("workload.cost2.us", 10), 0), p.parallelism("bolt2", 24))
            .fieldsGrouping("bolt1", new Fields("key"));
        return b.createTopology();
    }
}
