package io.nonstopstorm.ui;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.thrift.TException;
import org.apache.storm.thrift.transport.TTransportException;
import org.apache.storm.utils.NimbusClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link NimbusGateway} over one cached Nimbus thrift connection, opened on first use. When Nimbus cannot be
 * reached the call fails with {@link NimbusUnavailableException} and the next call connects afresh, so the
 * server outlives Nimbus restarts. A read that fails on a cached (possibly stale) connection is retried once on
 * a new one; topology operations are never retried, since Nimbus may already have applied them.
 * Thrift clients are not thread-safe, hence the serialised calls.
 */
public final class ReconnectingNimbusGateway implements NimbusGateway {

    /** Opens a connection to the leader Nimbus. */
    @FunctionalInterface
    public interface Connector {
        Connection open() throws Exception;
    }

    /** An open Nimbus connection. */
    public interface Connection extends AutoCloseable {
        Nimbus.Iface client();

        @Override
        void close();
    }

    @FunctionalInterface
    private interface Call<T> {
        T apply(NimbusGateway nimbus) throws TException;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ReconnectingNimbusGateway.class);

    private final Connector connector;
    private Connection connection;

    public ReconnectingNimbusGateway(Connector connector) {
        this.connector = connector;
    }

    /**
     * Connects with Storm's own client discovery (nimbus.seeds, leader lookup). The client's connect retries are
     * turned off: this server answers 503 at once and tries again on the next request instead.
     */
    public static ReconnectingNimbusGateway fromStormConfig(Map<String, Object> stormConf) {
        Map<String, Object> conf = new HashMap<>(stormConf);
        conf.put(Config.STORM_NIMBUS_RETRY_TIMES, 0);
        return new ReconnectingNimbusGateway(() -> {
            NimbusClient client = NimbusClient.getConfiguredClient(conf);
            return new Connection() {
                @Override
                public Nimbus.Iface client() {
                    return client.getClient();
                }

                @Override
                public void close() {
                    client.close();
                }
            };
        });
    }

    private synchronized <T> T call(boolean retryable, Call<T> op) throws TException {
        boolean fresh = connection == null;
        Nimbus.Iface client = connect();
        try {
            return op.apply(new IfaceNimbusGateway(client));
        } catch (TTransportException e) {
            drop();
            if (retryable && !fresh) {
                LOG.info("Nimbus connection went stale ({}); reconnecting", e.getMessage());
                return call(false, op);
            }
            throw new NimbusUnavailableException("Lost the connection to Nimbus: " + e.getMessage(), e);
        }
    }

    private Nimbus.Iface connect() throws NimbusUnavailableException {
        if (connection == null) {
            try {
                connection = connector.open();
            } catch (Exception e) {
                throw new NimbusUnavailableException("Nimbus is not reachable: " + rootMessage(e), e);
            }
        }
        return connection.client();
    }

    private void drop() {
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException e) {
                LOG.debug("Closing a broken Nimbus connection failed", e);
            }
            connection = null;
        }
    }

    /** Closes the cached connection, if any. */
    public synchronized void close() {
        drop();
    }

    private static String rootMessage(Throwable t) {
        Throwable cause = t;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause == t ? String.valueOf(t.getMessage()) : t.getMessage() + " (" + cause + ")";
    }

    @Override
    public String nimbusConf() throws TException {
        return call(true, NimbusGateway::nimbusConf);
    }

    @Override
    public ClusterSummary clusterInfo() throws TException {
        return call(true, NimbusGateway::clusterInfo);
    }

    @Override
    public SupervisorPageInfo supervisorPage(String supervisorId, String host, boolean includeSys) throws TException {
        return call(true, n -> n.supervisorPage(supervisorId, host, includeSys));
    }

    @Override
    public TopologyPageInfo topologyPage(String topologyId, String window, boolean includeSys) throws TException {
        return call(true, n -> n.topologyPage(topologyId, window, includeSys));
    }

    @Override
    public ComponentPageInfo componentPage(String topologyId, String componentId, String window, boolean includeSys)
        throws TException {
        return call(true, n -> n.componentPage(topologyId, componentId, window, includeSys));
    }

    @Override
    public TopologyInfo topologyInfo(String topologyId) throws TException {
        return call(true, n -> n.topologyInfo(topologyId));
    }

    @Override
    public StormTopology systemTopology(String topologyId) throws TException {
        return call(true, n -> n.systemTopology(topologyId));
    }

    @Override
    public void kill(String topologyName, KillOptions options) throws TException {
        call(false, n -> {
            n.kill(topologyName, options);
            return null;
        });
    }

    @Override
    public void activate(String topologyName) throws TException {
        call(false, n -> {
            n.activate(topologyName);
            return null;
        });
    }

    @Override
    public void deactivate(String topologyName) throws TException {
        call(false, n -> {
            n.deactivate(topologyName);
            return null;
        });
    }

    @Override
    public void rebalance(String topologyName, RebalanceOptions options) throws TException {
        call(false, n -> {
            n.rebalance(topologyName, options);
            return null;
        });
    }
}
