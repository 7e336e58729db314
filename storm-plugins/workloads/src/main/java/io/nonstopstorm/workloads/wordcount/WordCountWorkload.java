package io.nonstopstorm.workloads.wordcount;

import io.nonstopstorm.workloads.Params;
import io.nonstopstorm.workloads.DescribedWorkload;
import io.nonstopstorm.workloads.feed.FeedSpout;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The N-Storm paper's word count in Java: sentences (FeedSpout over workload.input) -> split (12,
 * shuffle) -> count (24, fields on word), 8 workers. The heavy variant's split also computes
 * harmonic numbers whose cost depends on the word and drifts over time ({@link KeyCost}).
 * Same component ids and settings as the Python topologies in topologies/wordcount.
 */
public final class WordCountWorkload extends DescribedWorkload {
    private final boolean heavy;

    public WordCountWorkload(boolean heavy) {
        super(heavy ? "wordcount-heavy-java" : "wordcount-java",
            (heavy ? "compute-heavy " : "") + "word count in Java: sentences -> split (12) -> count (24, fields word), "
                + "8 workers; workload.input, workload.rate, workload.total, workload.par.<component>"
                + (heavy ? ", workload.heavy.{base,classes,spread,drift.secs,seed}" : ""),
            Map.of(Config.TOPOLOGY_WORKERS, 8));
        this.heavy = heavy;
    }

    public static KeyCost heavyCost(Params p) {
        return new KeyCost(p.intAtLeast("workload.heavy.base", 2000, 0), p.intAtLeast("workload.heavy.classes", 16, 1),
            p.intAtLeast("workload.heavy.spread", 8, 1),
            (long) (p.doubleAtLeast("workload.heavy.drift.secs", 30.0, 0.001) * 1000), p.longValue("workload.heavy.seed", 0));
    }

    @Override
    public StormTopology build(Map<String, Object> conf) {
        Params p = new Params(conf);
        FeedSpout spout = new FeedSpout("lines", "sentence");
        spout.validate(conf);
        int snapshotSecs = p.intAtLeast("workload.snapshot.secs", 1, 1);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sentences", spout, p.parallelism("sentences", 1));
        b.setBolt("split", new SplitSentenceBolt(heavy ? heavyCost(p) : null), p.parallelism("split", 12))
            .shuffleGrouping("sentences");
        b.setBolt("count", new WordCountBolt(), p.parallelism("count", 24))
            .fieldsGrouping("split", new Fields("word"))
            .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, snapshotSecs);
        return b.createTopology();
    }
}
