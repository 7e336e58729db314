package io.nonstopstorm.workloads;

import java.util.Map;
import org.apache.storm.generated.StormTopology;

/** A named topology the suite can submit; parameters come from the topology conf ("workload.*"). */
public interface Workload {
    String name();

    /** One line for `pycontrol workload list` and error messages. */
    String description();

    StormTopology build(Map<String, Object> conf);

    /** Conf defaults the workload needs (e.g. its worker count); user settings override them. */
    Map<String, Object> defaults();

    /**
     * Conf defaults given the user's settings, for workloads whose defaults come from an input the
     * settings name (e.g. a topology spec file). User settings override these.
     */
    default Map<String, Object> defaultsFor(Map<String, Object> settings) {
        return defaults();
    }
}
