package io.nonstopstorm.workloads.relay;

import java.util.Map;
import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.DescribedWorkload;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The smallest useful acked pipeline: sequence spout -> relay (shuffle) -> sink (fields on seq).
 * Used to check a cluster end to end: every tuple emitted must come back acked.
 */
public final class RelayWorkload extends DescribedWorkload {
    public RelayWorkload() {
        super("relay", "sequence spout -> relay -> sink, acked; workload.rate (t/s per spout), workload.total "
            + "(0 = endless), workload.spouts, workload.relays, workload.sinks", Map.of(Config.TOPOLOGY_WORKERS, 2));
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        Params p = new Params(conf);
        double rate = p.doubleValue("workload.rate", 100.0);
        long total = p.intValue("workload.total", 0);
        if (rate <= 0) {
            throw new IllegalArgumentException("workload.rate must be > 0, got " + rate);
        }
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sequence", new SequenceSpout(rate, total), p.intValue("workload.spouts", 1));
        b.setBolt("relay", new RelayBolt(true), p.intValue("workload.relays", 4)).shuffleGrouping("sequence");
        b.setBolt("sink", new RelayBolt(false), p.intValue("workload.sinks", 2)).fieldsGrouping("relay", new Fields("seq"));
        return b.createTopology();
    }
}
