package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

class ReconnectingNimbusGatewayTest {

    private final ClusterSummary summary = new ClusterSummary(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    private final List<String> events = new ArrayList<>();
    /** Whether Nimbus accepts connections. */
    private boolean nimbusUp;
    /** Set when Nimbus goes away: the next call on an already open connection fails with a transport error. */
    private boolean openConnectionsBroken;

    private ReconnectingNimbusGateway gateway() {
        return new ReconnectingNimbusGateway(() -> {
            if (!nimbusUp) {
                events.add("connect refused");
                throw new ConnectException("Connection refused");
            }
            events.add("connect");
            openConnectionsBroken = false;
            return connection();
        });
    }

    private ReconnectingNimbusGateway.Connection connection() {
        Nimbus.Iface client = (Nimbus.Iface) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {Nimbus.Iface.class}, (proxy, method, args) -> {
                events.add(method.getName());
                if (openConnectionsBroken) {
                    throw new TTransportException("broken pipe");
                }
                return method.getName().equals("getClusterInfo") ? summary : null;
            });
        return new ReconnectingNimbusGateway.Connection() {
            @Override
            public Nimbus.Iface client() {
                return client;
            }

            @Override
            public void close() {
                events.add("close");
            }
        };
    }

    /** A gateway that has read from a reachable Nimbus once, so it holds an open connection. */
    private ReconnectingNimbusGateway connectedGateway() throws Exception {
        nimbusUp = true;
        ReconnectingNimbusGateway g = gateway();
        g.clusterInfo();
        return g;
    }

    @Test
    void unreachableNimbusIsUnavailableAndRetriedOnTheNextCall() throws Exception {
        ReconnectingNimbusGateway g = gateway();
        NimbusUnavailableException e = assertThrows(NimbusUnavailableException.class, g::clusterInfo);
        assertEquals("Nimbus is not reachable: Connection refused", e.getMessage());
        nimbusUp = true;
        assertSame(summary, g.clusterInfo());
        assertSame(summary, g.clusterInfo());
        assertEquals(List.of("connect refused", "connect", "getClusterInfo", "getClusterInfo"), events);
    }

    @Test
    void cachedConnectionThatBreaksIsReplacedOnceForReads() throws Exception {
        ReconnectingNimbusGateway g = connectedGateway();
        openConnectionsBroken = true;   // Nimbus restarted since
        assertSame(summary, g.clusterInfo());
        assertEquals(List.of("connect", "getClusterInfo", "getClusterInfo", "close", "connect", "getClusterInfo"), events);
    }

    @Test
    void brokenConnectionIsNotRetriedForOperations() throws Exception {
        ReconnectingNimbusGateway g = connectedGateway();
        openConnectionsBroken = true;
        events.clear();
        // Nimbus may have applied the kill before the connection broke: report, don't repeat.
        assertThrows(NimbusUnavailableException.class, () -> g.kill("wc", new KillOptions()));
        assertEquals(List.of("killTopologyWithOpts", "close"), events);
        g.activate("wc");
        assertEquals(List.of("killTopologyWithOpts", "close", "connect", "activate"), events);
    }

    @Test
    void nimbusDownWhileReconnectingIsUnavailable() throws Exception {
        ReconnectingNimbusGateway g = connectedGateway();
        openConnectionsBroken = true;
        nimbusUp = false;
        assertThrows(NimbusUnavailableException.class, g::clusterInfo);
        assertEquals(List.of("connect", "getClusterInfo", "getClusterInfo", "close", "connect refused"), events);
    }
}
