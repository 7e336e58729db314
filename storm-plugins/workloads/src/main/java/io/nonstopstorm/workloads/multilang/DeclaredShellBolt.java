package io.nonstopstorm.workloads.multilang;

import io.nonstopstorm.workloads.measure.MeasureDir;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.OutputFieldsDeclarer;

/**
 * A multilang bolt (e.g. a streamparse Bolt run by {@code python -m streamparse.run mod.Class}) with
 * the output streams and component conf its spec declares. The child process also gets
 * {@value MeasureDir#CONF_KEY} in its conf, resolved in the worker, so Python components write their
 * measurements where the Java ones do.
 */
public class DeclaredShellBolt extends ShellBolt implements IRichBolt {
    private static final long serialVersionUID = 1L;

    private final DeclaredOutputs declared;

    public DeclaredShellBolt(List<String> command, Map<String, List<String>> streams, Map<String, Object> componentConf) {
        super(command.toArray(new String[0]));
        this.declared = new DeclaredOutputs(streams, componentConf);
    }

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        super.prepare(withMeasureDir(topoConf), context, collector);
    }

    static Map<String, Object> withMeasureDir(Map<String, Object> topoConf) {
        Map<String, Object> conf = new HashMap<>(topoConf);
        conf.put(MeasureDir.CONF_KEY, MeasureDir.resolve(topoConf).toString());
        return conf;
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
