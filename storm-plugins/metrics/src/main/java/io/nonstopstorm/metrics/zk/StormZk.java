package io.nonstopstorm.metrics.zk;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Where a Storm daemon's or worker's conf says ZooKeeper is: the one reading of it for every suite client. */
public final class StormZk {
    public static final String SERVERS = "storm.zookeeper.servers";
    public static final String PORT = "storm.zookeeper.port";

    private StormZk() {
    }

    /**
     * "host:port,host:port" from {@value #SERVERS} and {@value #PORT} (default 2181).
     *
     * @throws IllegalArgumentException when no server is listed
     */
    public static String connectString(Map<String, Object> conf) {
        Object listed = conf.get(SERVERS);
        if (!(listed instanceof List<?> servers) || servers.isEmpty()) {
            throw new IllegalArgumentException(SERVERS + " is not set");
        }
        Object port = conf.getOrDefault(PORT, 2181);
        return servers.stream().map(s -> s + ":" + port).collect(Collectors.joining(","));
    }
}
