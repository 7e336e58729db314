package io.nonstopstorm.workloads.grouping;

import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.Workload;
import io.nonstopstorm.workloads.feed.FeedSpout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The Consistent Grouping paper's Storm experiment: source (FeedSpout: a file of keys, one per line, e.g.
 * Brown corpus words, or a replayed trace's keys) -> count (workload.grouping, a fixed processing cost per
 * tuple, some tasks slowed by workload.slowdown) -> aggregate (fields on word: periodic aggregation of the
 * counts' partials every workload.aggregate.secs).
 */
public final class GroupingCountWorkload implements Workload {
    @Override
    public String name() {
        return "grouping-count";
    }

    @Override
    public String description() {
        return "keys -> count (workload.grouping kg|sg|pkg|potc|ch|cg; workload.cost.us per tuple, workload.cost.mode "
            + "sleep|spin, workload.slowdown=[f0, f1, ...] per count task index) -> aggregate (fields word, every "
            + "workload.aggregate.secs); workload.input (one key per line) or workload.trace, workload.rate, "
            + "workload.total, workload.par.<component>, workload.cg.{epsilon,vws,idle,busy,slot.ms,signals}";
    }

    @Override
    public Map<String, Object> defaults() {
        return Map.of(Config.TOPOLOGY_WORKERS, 4);
    }

    static List<Double> slowdown(Object value) {
        if (value == null) {
            return List.of();
        }
        List<?> raw = value instanceof List<?> l ? l : List.of(value.toString().split(","));
        List<Double> out = new ArrayList<>();
        for (Object o : raw) {
            try {
                out.add(o instanceof Number n ? n.doubleValue() : Double.parseDouble(o.toString().trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("workload.slowdown must be a list of numbers, got '" + value + "'");
            }
        }
        return out;
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        Params p = new Params(conf);
        boolean trace = p.stringValue("workload.trace", null) != null;
        FeedSpout spout = new FeedSpout("lines", trace ? "word,payload" : "word");
        spout.validate(conf);
        GroupingChoice grouping = GroupingChoice.parse(p.stringValue("workload.grouping", "cg"));
        KeyCostBolt count = new KeyCostBolt(p.longValue("workload.cost.us", 1000), p.stringValue("workload.cost.mode", "sleep"),
            slowdown(conf.get("workload.slowdown")));
        int aggregateSecs = p.intAtLeast("workload.aggregate.secs", 2, 1);

        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("source", spout, p.parallelism("source", 1));
        BoltDeclarer counting = b.setBolt("count", count, p.parallelism("count", 4))
            .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, aggregateSecs);
        grouping.apply(counting, "source", "word", p);
        b.setBolt("aggregate", new MergeCountsBolt(), p.parallelism("aggregate", 1))
            .fieldsGrouping("count", KeyCostBolt.PARTIALS, new Fields("word"))
            .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, aggregateSecs);
        return b.createTopology();
    }
}
