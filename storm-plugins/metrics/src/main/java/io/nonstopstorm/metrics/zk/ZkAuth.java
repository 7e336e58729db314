package io.nonstopstorm.metrics.zk;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.framework.api.ACLProvider;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.apache.storm.shade.org.apache.zookeeper.data.Id;
import org.apache.storm.shade.org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * The ZooKeeper credentials of the suite's clients and the ACL of every znode they create, from Storm's own
 * keys in the conf ({@code storm.zookeeper.auth.scheme: digest}, {@code storm.zookeeper.auth.payload:
 * "user:password"}): the digest principal of that payload may do anything, nobody else anything. Metrics
 * documents are also world-readable when {@code nonstop.zookeeper.metrics.world.read} is true. One home for
 * the scheduling, metrics and grouping modules (the metrics jar sits in extlib beside theirs).
 */
public final class ZkAuth {
    public static final String AUTH_SCHEME = "storm.zookeeper.auth.scheme";
    public static final String AUTH_PAYLOAD = "storm.zookeeper.auth.payload";
    public static final String METRICS_WORLD_READ = "nonstop.zookeeper.metrics.world.read";
    public static final String DIGEST = "digest";

    private static final Pattern USER = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final String payload;
    private final boolean metricsWorldRead;
    private final Id principal;

    private ZkAuth(String payload, boolean metricsWorldRead) {
        int colon = payload.indexOf(':');
        if (colon < 0 || !USER.matcher(payload.substring(0, colon)).matches()
            || colon == payload.length() - 1 || payload.indexOf(':', colon + 1) >= 0) {
            throw new IllegalArgumentException(AUTH_PAYLOAD + " must be 'user:password' (user of letters, digits, "
                + "'.', '_', '-'; a non-empty password without ':')");
        }
        this.payload = payload;
        this.metricsWorldRead = metricsWorldRead;
        this.principal = new Id(DIGEST, digest(payload));
    }

    /**
     * The credentials the conf configures; empty when it configures none (an open ZooKeeper, as stock Storm).
     *
     * @throws IllegalArgumentException for a scheme other than digest, a missing or malformed payload, or a
     *     world-read flag that is not a boolean
     */
    public static Optional<ZkAuth> fromConf(Map<String, Object> conf) {
        Object scheme = conf.get(AUTH_SCHEME);
        Object payload = conf.get(AUTH_PAYLOAD);
        if (isBlank(scheme) && isBlank(payload)) {
            return Optional.empty();
        }
        if (!DIGEST.equals(scheme)) {
            throw new IllegalArgumentException(AUTH_SCHEME + " must be 'digest' (the only scheme the suite supports), "
                + "got '" + scheme + "'");
        }
        if (isBlank(payload)) {
            throw new IllegalArgumentException(AUTH_SCHEME + " is digest but " + AUTH_PAYLOAD + " is not set");
        }
        Object world = conf.getOrDefault(METRICS_WORLD_READ, false);
        if (!(world instanceof Boolean)) {
            throw new IllegalArgumentException(METRICS_WORLD_READ + " must be true or false, got '" + world + "'");
        }
        return Optional.of(new ZkAuth(payload.toString(), (Boolean) world));
    }

    /** ZooKeeper's digest of "user:password": "user:base64(sha1(user:password))". */
    static String digest(String payload) {
        try {
            return DigestAuthenticationProvider.generateDigest(payload);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA1 is not available in this JVM", e);
        }
    }

    /** The principal of the ACLs: scheme digest, id "user:digest". */
    public Id principal() {
        return principal;
    }

    public String user() {
        return payload.substring(0, payload.indexOf(':'));
    }

    /** The ACL of a znode the suite creates at path; metricsRoot (or null) is where metrics documents live. */
    public List<ACL> acl(String path, String metricsRoot) {
        List<ACL> acl = new ArrayList<>(2);
        acl.add(new ACL(ZooDefs.Perms.ALL, principal));
        if (metricsWorldRead && metricsRoot != null && (path.equals(metricsRoot) || path.startsWith(metricsRoot + "/"))) {
            acl.add(new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
        }
        return acl;
    }

    /** Curator's view of {@link #acl}: parents created on the way get it too. */
    public ACLProvider aclProvider(String metricsRoot) {
        return new ACLProvider() {
            @Override
            public List<ACL> getDefaultAcl() {
                return acl("/", null);
            }

            @Override
            public List<ACL> getAclForPath(String path) {
                return acl(path, metricsRoot);
            }
        };
    }

    /** Authenticates the client being built with these credentials and creates its znodes with {@link #acl}. */
    public CuratorFrameworkFactory.Builder apply(CuratorFrameworkFactory.Builder builder, String metricsRoot) {
        return builder.authorization(DIGEST, payload.getBytes(StandardCharsets.UTF_8)).aclProvider(aclProvider(metricsRoot));
    }

    /** The builder as configured by the conf: authenticated with restricted ACLs, or untouched without auth. */
    public static CuratorFrameworkFactory.Builder configure(CuratorFrameworkFactory.Builder builder, Map<String, Object> conf,
                                                            String metricsRoot) {
        return fromConf(conf).map(a -> a.apply(builder, metricsRoot)).orElse(builder);
    }

    @Override
    public String toString() { // never the password in a log line
        return "ZkAuth(" + principal.getScheme() + ":" + user() + ", metricsWorldRead=" + metricsWorldRead + ")";
    }

    private static boolean isBlank(Object o) {
        return o == null || o.toString().isBlank();
    }
}
