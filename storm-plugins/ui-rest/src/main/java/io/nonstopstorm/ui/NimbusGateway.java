package io.nonstopstorm.ui;

import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.thrift.TException;

/**
 * The Nimbus calls the REST API needs. Unknown topologies surface as {@code NotAliveException}; an unreachable
 * Nimbus as {@link NimbusUnavailableException}.
 */
public interface NimbusGateway {

    String nimbusConf() throws TException;

    ClusterSummary clusterInfo() throws TException;

    SupervisorPageInfo supervisorPage(String supervisorId, String host, boolean includeSys) throws TException;

    TopologyPageInfo topologyPage(String topologyId, String window, boolean includeSys) throws TException;

    ComponentPageInfo componentPage(String topologyId, String componentId, String window, boolean includeSys)
        throws TException;

    /** Topology info without its error lists (enough to learn the name, executors and their workers). */
    TopologyInfo topologyInfo(String topologyId) throws TException;

    /** The topology as it runs, system components (acker, event logger, metrics) included. */
    StormTopology systemTopology(String topologyId) throws TException;

    void kill(String topologyName, KillOptions options) throws TException;

    void activate(String topologyName) throws TException;

    void deactivate(String topologyName) throws TException;

    void rebalance(String topologyName, RebalanceOptions options) throws TException;
}
