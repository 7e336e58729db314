package io.nonstopstorm.workloads.multilang;

import java.util.List;
import java.util.Map;
import org.apache.storm.spout.ShellSpout;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.IRichSpout;
import org.apache.storm.topology.OutputFieldsDeclarer;

/** A multilang spout with the output streams and component conf its spec declares (see DeclaredShellBolt). */
public class DeclaredShellSpout extends ShellSpout implements IRichSpout {
    private static final long serialVersionUID = 1L;

    private final DeclaredOutputs declared;

    public DeclaredShellSpout(List<String> command, Map<String, List<String>> streams, Map<String, Object> componentConf) {
        super(command.toArray(new String[0]));
        this.declared = new DeclaredOutputs(streams, componentConf);
    }

    @Override
    public void open(Map<String, Object> topoConf, TopologyContext context, SpoutOutputCollector collector) {
        super.open(DeclaredShellBolt.withMeasureDir(topoConf), context, collector);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declared.declare(declarer);
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        return declared.componentConf();
    }
}
