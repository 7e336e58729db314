package io.nonstopstorm.workloads.multilang;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Fields;

/**
 * What a spec declares for a multilang component: its output streams and its component conf. Kept in
 * serializable copies because the component travels to the workers inside the topology.
 */
final class DeclaredOutputs implements Serializable {
    private static final long serialVersionUID = 1L;

    private final HashMap<String, List<String>> streams = new HashMap<>();
    private final HashMap<String, Object> componentConf;

    DeclaredOutputs(Map<String, List<String>> streams, Map<String, Object> componentConf) {
        streams.forEach((s, f) -> this.streams.put(s, new ArrayList<>(f)));
        this.componentConf = new HashMap<>(componentConf);
    }

    void declare(OutputFieldsDeclarer declarer) {
        streams.forEach((stream, fields) -> declarer.declareStream(stream, new Fields(fields)));
    }

    Map<String, Object> componentConf() {
        return componentConf;
    }
}
