package io.nonstopstorm.workloads.topk;

import io.nonstopstorm.workloads.DescribedWorkload;
import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.feed.FeedSpout;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The Elastic Allocator experiment's placed query: items (FeedSpout, generated keys, acked) -> count
 * (fields on key; tumbling windows of workload.window.secs, partial top K per task) -> rank (global,
 * merged top K each window). workload.rate paces the items; latency is the items' (acked when counted).
 */
public final class TopKWorkload extends DescribedWorkload {
    public TopKWorkload() {
        super("topk-java",
            "Top-K in Java: items (generated keys) -> count (4, fields key, tumbling window) -> rank (1, global), "
                + "4 workers; workload.rate, workload.keys, workload.tuple.bytes, workload.topk.k (10), "
                + "workload.window.secs (2), workload.par.<component>",
            Map.of(Config.TOPOLOGY_WORKERS, 4));
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        Params p = new Params(conf);
        FeedSpout spout = new FeedSpout("generated", "key,payload");
        spout.validate(conf);
        int k = p.intAtLeast("workload.topk.k", 10, 1);
        int windowSecs = p.intAtLeast("workload.window.secs", 2, 1);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("items", spout, p.parallelism("items", 1));
        b.setBolt("count", new WindowCountBolt(k), p.parallelism("count", 4))
            .fieldsGrouping("items", new Fields("key"))
            .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, windowSecs);
        b.setBolt("rank", new TopKMergeBolt(k), 1)
            .globalGrouping("count")
            .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, windowSecs);
        return b.createTopology();
    }
}
