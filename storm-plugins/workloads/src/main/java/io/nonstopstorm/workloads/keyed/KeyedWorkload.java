package io.nonstopstorm.workloads.keyed;

import java.util.Map;
import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.DescribedWorkload;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * Known traffic, to check what the metrics plane measures: "keys" spouts emit the key cycle (key i
 * weighted i+1) at a fixed rate; "busy" (CPU per tuple) and "idle" (no work) each receive every tuple by
 * fields grouping on the key. Tuples are unanchored (no acker traffic).
 */
public final class KeyedWorkload extends DescribedWorkload {
    public KeyedWorkload() {
        super("keyed", "keys -> busy and idle (fields on key; key i weighted i+1), unanchored; workload.rate (t/s per "
            + "spout, <= 0 flat out), workload.keys, workload.spouts, workload.busy, workload.idle, workload.busy.work.us",
            Map.of(Config.TOPOLOGY_WORKERS, 2));
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        Params p = new Params(conf);
        int keys = p.intAtLeast("workload.keys", 8, 1);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("keys", new KeyCycleSpout(p.doubleValue("workload.rate", 200.0), keys),
            p.intAtLeast("workload.spouts", 1, 1));
        b.setBolt("busy", new BurnBolt(p.longValue("workload.busy.work.us", 500)), p.intAtLeast("workload.busy", 2, 1))
            .fieldsGrouping("keys", new Fields("key"));
        b.setBolt("idle", new BurnBolt(0), p.intAtLeast("workload.idle", 2, 1))
            .fieldsGrouping("keys", new Fields("key"));
        return b.createTopology();
    }
}
