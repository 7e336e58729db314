package io.nonstopstorm.wire;

/**
 * Every ZooKeeper path under {@code /nonstop} the suite's JVM code reads or writes (docs/architecture.md
 * lists writers and readers). The Python side spells the same paths in pycontrol.
 */
public final class ZkPaths {

    /** The suite's subtree; its ACLs are set by the cluster's owner. */
    public static final String ROOT = "/nonstop";
    /** Plan znodes, one per topology name: the controller writes, the plan-following scheduler reads. */
    public static final String PLANS = ROOT + "/plans";
    /** Decisions on plans (and, with {@link #SCHEDULER_DECISION_SUFFIX}, the placing schedulers' records). */
    public static final String DECISIONS = ROOT + "/decisions";
    /** One record per host whose supervisor runs the migration agent. */
    public static final String AGENTS = ROOT + "/agents";
    /** Default root of the workers' metrics documents (conf {@code nonstop.metrics.zk.root} may move it). */
    public static final String METRICS = ROOT + "/metrics";
    /** The controller daemon's decisions, one per topology name. */
    public static final String CONTROLLER_DECISIONS = ROOT + "/controller/decisions";
    /** Appended to a topology name for the record a placing scheduler writes under {@link #DECISIONS}. */
    public static final String SCHEDULER_DECISION_SUFFIX = ".scheduler";

    private ZkPaths() {
    }

    public static String plan(String topologyName) {
        return PLANS + "/" + topologyName;
    }

    public static String decision(String topologyName) {
        return DECISIONS + "/" + topologyName;
    }

    public static String schedulerDecision(String topologyName) {
        return DECISIONS + "/" + topologyName + SCHEDULER_DECISION_SUFFIX;
    }

    public static String agent(String host) {
        return AGENTS + "/" + host;
    }

    public static String controllerDecision(String topologyName) {
        return CONTROLLER_DECISIONS + "/" + topologyName;
    }

    /** The directory of one topology's metrics documents under a metrics root. */
    public static String metricsTopology(String metricsRoot, String topologyId) {
        return metricsRoot + "/" + topologyId;
    }

    /** One worker's metrics document: {@code <root>/<topology-id>/<host>-<port>}. */
    public static String metricsWorker(String metricsRoot, String topologyId, String host, int port) {
        return metricsTopology(metricsRoot, topologyId) + "/" + host + "-" + port;
    }
}
