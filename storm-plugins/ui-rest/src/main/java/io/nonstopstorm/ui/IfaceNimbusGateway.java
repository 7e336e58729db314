package io.nonstopstorm.ui;

import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.thrift.TException;

/** {@link NimbusGateway} over any {@code Nimbus.Iface}: a thrift client, or an in-process LocalCluster. */
public final class IfaceNimbusGateway implements NimbusGateway {

    private final Nimbus.Iface nimbus;

    public IfaceNimbusGateway(Nimbus.Iface nimbus) {
        this.nimbus = nimbus;
    }

    @Override
    public String nimbusConf() throws TException {
        return nimbus.getNimbusConf();
    }

    @Override
    public ClusterSummary clusterInfo() throws TException {
        return nimbus.getClusterInfo();
    }

    @Override
    public SupervisorPageInfo supervisorPage(String supervisorId, String host, boolean includeSys) throws TException {
        return nimbus.getSupervisorPageInfo(supervisorId, host, includeSys);
    }

    @Override
    public TopologyPageInfo topologyPage(String topologyId, String window, boolean includeSys) throws TException {
        return nimbus.getTopologyPageInfo(topologyId, window, includeSys);
    }

    @Override
    public ComponentPageInfo componentPage(String topologyId, String componentId, String window, boolean includeSys)
        throws TException {
        return nimbus.getComponentPageInfo(topologyId, componentId, window, includeSys);
    }

    @Override
    public TopologyInfo topologyInfo(String topologyId) throws TException {
        GetInfoOptions options = new GetInfoOptions();
        options.set_num_err_choice(NumErrorsChoice.NONE);
        return nimbus.getTopologyInfoWithOpts(topologyId, options);
    }

    @Override
    public StormTopology systemTopology(String topologyId) throws TException {
        return nimbus.getTopology(topologyId);
    }

    @Override
    public void kill(String topologyName, KillOptions options) throws TException {
        nimbus.killTopologyWithOpts(topologyName, options);
    }

    @Override
    public void activate(String topologyName) throws TException {
        nimbus.activate(topologyName);
    }

    @Override
    public void deactivate(String topologyName) throws TException {
        nimbus.deactivate(topologyName);
    }

    @Override
    public void rebalance(String topologyName, RebalanceOptions options) throws TException {
        nimbus.rebalance(topologyName, options);
    }
}
