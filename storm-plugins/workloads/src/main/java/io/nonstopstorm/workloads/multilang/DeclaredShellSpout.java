package io.nonstopstorm.workloads.multilang;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.spout.ShellSpout;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.IRichSpout;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Fields;

/** A multilang spout with the output streams and component conf its spec declares (see DeclaredShellBolt). */
public class DeclaredShellSpout extends ShellSpout implements IRichSpout {
    private static final long serialVersionUID = 1L;

    private final HashMap<String, List<String>> streams;
    private final HashMap<String, Object> componentConf;

    public DeclaredShellSpout(List<String> command, Map<String, List<String>> streams, Map<String, Object> componentConf) {
        super(command.toArray(new String[0]));
        this.streams = new HashMap<>();
        streams.forEach((s, f) -> this.streams.put(s, new java.util.ArrayList<>(f)));
        this.componentConf = new HashMap<>(componentConf);
    }

    @Override
    public void open(Map<String, Object> topoConf, TopologyContext context, SpoutOutputCollector collector) {
        super.open(DeclaredShellBolt.withMeasureDir(topoConf), context, collector);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        streams.forEach((stream, fields) -> declarer.declareStream(stream, new Fields(fields)));
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        return componentConf;
    }
}
