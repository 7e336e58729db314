package io.nonstopstorm.ui;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.storm.DaemonConfig;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's UI REST daemon: Storm's UI REST API v1 (a subset) served from Nimbus thrift, since Storm's own
 * UI (storm-webapp) cannot be obtained. Reads the Storm config from the classpath, listens on ui.host (default
 * 127.0.0.1) and ui.port as {@link AccessSettings} allow, and keeps running while Nimbus is down (requests then
 * get 503).
 */
public final class UiRestServer {

    private static final Logger LOG = LoggerFactory.getLogger(UiRestServer.class);

    private UiRestServer() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Map<String, Object> conf = Utils.readStormConfig();
        AccessSettings access;
        try {
            access = AccessSettings.fromConfig(conf, Utils.readDefaultConfig());
        } catch (IllegalArgumentException e) {
            LOG.error("UI REST refuses to start: {}", e.getMessage());
            System.exit(2);
            return;
        }
        int port = ObjectReader.getInt(conf.get(DaemonConfig.UI_PORT), 8080);
        ReconnectingNimbusGateway nimbus = ReconnectingNimbusGateway.fromStormConfig(conf);
        MoveSource moves = ZkMoveSource.fromStormConf(conf);
        ApiRouter router = new ApiRouter(nimbus, UiSettings.fromConfig(conf), Clock.systemUTC(), moves);
        HttpApiServer server = HttpApiServer.start(port, router, new RequestGuard(access));
        InetSocketAddress bound = server.address();
        LOG.info("UI REST listening on {}:{}{}", access.host(), bound.getPort(), access.token() == null
            ? "; state-changing requests are refused until " + AccessSettings.TOKEN + " is set" : "");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            nimbus.close();
            if (moves instanceof ZkMoveSource zk) {
                zk.close();
            }
            stopped.countDown();
        }, "ui-rest-shutdown"));
        stopped.await();
    }
}
