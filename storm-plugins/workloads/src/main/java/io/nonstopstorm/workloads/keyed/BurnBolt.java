package io.nonstopstorm.workloads.keyed;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/**
 * A terminal bolt that spends a fixed amount of its thread's CPU time per tuple (0 = none) and emits
 * nothing. CPU time, not wall time: on a crowded machine a wall-clock spin would burn less CPU than
 * asked, and this bolt exists to be a known CPU load.
 */
public class BurnBolt extends BaseRichBolt {
    private final long workMicros;
    private transient ThreadMXBean threads;
    private transient long sink;

    public BurnBolt(long workMicros) {
        this.workMicros = workMicros;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        threads = ManagementFactory.getThreadMXBean();
    }

    @Override
    public void execute(Tuple input) {
        if (workMicros > 0) {
            sink += burnCpu(threads, workMicros * 1000);
        }
    }

    /** Spins until the calling thread has used {@code nanos} of CPU; returns a value derived from the work. */
    static long burnCpu(ThreadMXBean threads, long nanos) {
        long end = threads.getCurrentThreadCpuTime() + nanos;
        long x = 0;
        do {
            for (int i = 0; i < 256; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        } while (threads.getCurrentThreadCpuTime() < end);
        return x;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
