package io.nonstopstorm.workloads.join;

import io.nonstopstorm.workloads.DescribedWorkload;
import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.feed.FeedSpout;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * Two streams joined on a key within a window: left and right (FeedSpouts, generated keys, acked, each at
 * workload.rate) -> join (fields on key, {@link WindowJoin}). One of the Elastic Allocator experiment's
 * background queries.
 */
public final class JoinWorkload extends DescribedWorkload {
    public JoinWorkload() {
        super("join-java",
            "windowed stream join in Java: left and right (generated keys, each at workload.rate) -> join (4, fields key), "
                + "2 workers; workload.rate, workload.keys, workload.tuple.bytes, workload.join.window.ms (1000), "
                + "workload.join.max.per.key (64), workload.par.<component>",
            Map.of(Config.TOPOLOGY_WORKERS, 2));
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        Params p = new Params(conf);
        FeedSpout left = new FeedSpout("generated", "key,payload");
        left.validate(conf);
        FeedSpout right = new FeedSpout("generated", "key,payload");
        long windowMs = p.intAtLeast("workload.join.window.ms", 1000, 1);
        int maxPerKey = p.intAtLeast("workload.join.max.per.key", 64, 1);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("left", left, p.parallelism("left", 1));
        b.setSpout("right", right, p.parallelism("right", 1));
        b.setBolt("join", new JoinBolt("left", windowMs, maxPerKey), p.parallelism("join", 4))
            .fieldsGrouping("left", new Fields("key"))
            .fieldsGrouping("right", new Fields("key"));
        return b.createTopology();
    }
}
