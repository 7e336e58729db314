package io.nonstopstorm.ui;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import org.apache.storm.DaemonConfig;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's UI REST daemon: Storm's UI REST API v1 (a subset) served from Nimbus thrift, since Storm's own
 * UI (storm-webapp) cannot be obtained. Reads the Storm config from the classpath, listens on ui.host (default
 * 127.0.0.1) and ui.port, and keeps running while Nimbus is down (requests then get 503).
 */
public final class UiRestServer {

    private static final Logger LOG = LoggerFactory.getLogger(UiRestServer.class);
    static final String DEFAULT_HOST = "127.0.0.1";

    private UiRestServer() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Map<String, Object> conf = Utils.readStormConfig();
        String host = bindHost(conf, Utils.readDefaultConfig());
        int port = ObjectReader.getInt(conf.get(DaemonConfig.UI_PORT), 8080);
        ReconnectingNimbusGateway nimbus = ReconnectingNimbusGateway.fromStormConfig(conf);
        ApiRouter router = new ApiRouter(nimbus, UiSettings.fromConfig(conf), Clock.systemUTC());
        HttpApiServer server = HttpApiServer.start(host, port, router);
        InetSocketAddress bound = server.address();
        LOG.info("UI REST listening on {}:{}", host, bound.getPort());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            nimbus.close();
            stopped.countDown();
        }, "ui-rest-shutdown"));
        stopped.await();
    }

    /**
     * ui.host when storm.yaml (or the command line) sets it, else loopback. Storm's defaults.yaml says 0.0.0.0;
     * a value equal to that default counts as unset, so this daemon never listens beyond loopback by accident.
     */
    static String bindHost(Map<String, Object> conf, Map<String, Object> defaults) {
        Object host = conf.get(DaemonConfig.UI_HOST);
        if (host == null || String.valueOf(host).isBlank() || Objects.equals(host, defaults.get(DaemonConfig.UI_HOST))) {
            return DEFAULT_HOST;
        }
        return String.valueOf(host);
    }
}
