package io.nonstopstorm.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.ComponentType;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.thrift.TException;

/** In-memory Nimbus knowing one topology (id → name), recording the calls it receives. */
final class FakeNimbus implements NimbusGateway {

    final Map<String, String> topologies = new HashMap<>();
    final Map<String, List<String>> spouts = new HashMap<>();
    final Map<String, List<String>> bolts = new HashMap<>();
    final Map<String, List<ExecutorSummary>> executors = new HashMap<>();
    final List<String> calls = new ArrayList<>();
    ClusterSummary cluster = new ClusterSummary(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    String nimbusConf = "{\"nimbus.thrift.port\":6627}";
    TException failure;
    KillOptions lastKill;
    RebalanceOptions lastRebalance;

    FakeNimbus withTopology(String id, String name, List<String> spoutIds, List<String> boltIds) {
        topologies.put(id, name);
        spouts.put(id, spoutIds);
        bolts.put(id, boltIds);
        return this;
    }

    private void check(String call) throws TException {
        calls.add(call);
        if (failure != null) {
            throw failure;
        }
    }

    private String known(String id) throws NotAliveException {
        String name = topologies.get(id);
        if (name == null) {
            throw new NotAliveException(id);
        }
        return name;
    }

    private String byName(String name) throws NotAliveException {
        if (!topologies.containsValue(name)) {
            throw new NotAliveException(name);
        }
        return name;
    }

    @Override
    public String nimbusConf() throws TException {
        check("nimbusConf");
        return nimbusConf;
    }

    @Override
    public ClusterSummary clusterInfo() throws TException {
        check("clusterInfo");
        return cluster;
    }

    @Override
    public SupervisorPageInfo supervisorPage(String supervisorId, String host, boolean includeSys) throws TException {
        check("supervisorPage " + supervisorId + " " + host + " " + includeSys);
        SupervisorPageInfo p = new SupervisorPageInfo();
        p.set_supervisor_summaries(new ArrayList<>(cluster.get_supervisors()));
        return p;
    }

    @Override
    public TopologyPageInfo topologyPage(String topologyId, String window, boolean includeSys) throws TException {
        check("topologyPage " + topologyId + " " + window + " " + includeSys);
        TopologyPageInfo p = new TopologyPageInfo(topologyId);
        p.set_name(known(topologyId));
        p.set_status("ACTIVE");
        return p;
    }

    @Override
    public ComponentPageInfo componentPage(String topologyId, String componentId, String window, boolean includeSys)
        throws TException {
        check("componentPage " + topologyId + " " + componentId + " " + window + " " + includeSys);
        ComponentPageInfo p = new ComponentPageInfo(componentId,
            spouts.get(topologyId).contains(componentId) ? ComponentType.SPOUT : ComponentType.BOLT);
        p.set_topology_name(known(topologyId));
        return p;
    }

    @Override
    public TopologyInfo topologyInfo(String topologyId) throws TException {
        check("topologyInfo " + topologyId);
        return new TopologyInfo(topologyId, known(topologyId), 1,
            new ArrayList<>(executors.getOrDefault(topologyId, List.of())), "ACTIVE", new HashMap<>());
    }

    @Override
    public StormTopology systemTopology(String topologyId) throws TException {
        check("systemTopology " + topologyId);
        known(topologyId);
        Map<String, SpoutSpec> s = new HashMap<>();
        spouts.get(topologyId).forEach(id -> s.put(id, new SpoutSpec()));
        Map<String, Bolt> b = new HashMap<>();
        bolts.get(topologyId).forEach(id -> b.put(id, new Bolt()));
        return new StormTopology(s, b, new HashMap<>());
    }

    @Override
    public void kill(String topologyName, KillOptions options) throws TException {
        check("kill " + byName(topologyName));
        lastKill = options;
    }

    @Override
    public void activate(String topologyName) throws TException {
        check("activate " + byName(topologyName));
    }

    @Override
    public void deactivate(String topologyName) throws TException {
        check("deactivate " + byName(topologyName));
    }

    @Override
    public void rebalance(String topologyName, RebalanceOptions options) throws TException {
        check("rebalance " + byName(topologyName));
        lastRebalance = options;
    }
}
