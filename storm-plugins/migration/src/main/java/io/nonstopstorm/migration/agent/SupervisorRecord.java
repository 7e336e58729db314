package io.nonstopstorm.migration.agent;

import io.nonstopstorm.migration.verify.AgentRecord;
import io.nonstopstorm.migration.verify.AgentStatus;
import io.nonstopstorm.migration.verify.VerificationReport;
import java.lang.management.ManagementFactory;
import java.util.Map;
import org.apache.storm.utils.ConfigUtils;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the supervisor JVM's verdict as {@code /nonstop/agents/<host>} (the host Nimbus knows the
 * supervisor by), on a thread of its own so the supervisor's start does not wait for ZooKeeper.
 */
final class SupervisorRecord {
    private static final Logger LOG = LoggerFactory.getLogger(SupervisorRecord.class);

    private SupervisorRecord() {
    }

    static void startPublishing() {
        Thread t = new Thread(SupervisorRecord::publish, "nonstop-agent-record");
        t.setDaemon(true);
        t.start();
    }

    private static void publish() {
        try {
            Map<String, Object> conf = ConfigUtils.readStormConfig();
            VerificationReport r = AgentStatus.resolve(conf);
            String host = Utils.hostname();
            AgentRecord.publish(conf, host, r.toJson(ManagementFactory.getRuntimeMXBean().getName(),
                                                     System.currentTimeMillis()));
            LOG.info("nonstop: agent record {} published (migration {})", AgentRecord.path(host),
                     r.migrationOn() ? "on" : "off");
        } catch (Exception | LinkageError e) {
            LOG.warn("nonstop: cannot publish the agent record; the scheduler does not know this node's agent", e);
        }
    }
}
