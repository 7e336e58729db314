package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.migration.nimbus.NimbusRounds;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the scheduler does when a controller plan is written: asks Nimbus for a scheduling round now
 * ({@link NimbusRounds}, installed in Nimbus by the migration agent's {@code =nimbus} role). Without the
 * agent, or without its jar in extlib, the plan waits for the next periodic round; that is said once.
 */
final class PlanTriggeredRounds {
    private static final Logger LOG = LoggerFactory.getLogger(PlanTriggeredRounds.class);
    private static final AtomicBoolean SAID_UNAVAILABLE = new AtomicBoolean();

    private PlanTriggeredRounds() {
    }

    static void planWritten(String topologyName) {
        String why = "the plan of " + topologyName + " was written";
        try {
            if (NimbusRounds.request(why)) {
                return;
            }
        } catch (LinkageError e) {
            // nonstop-migration.jar is not on Nimbus's classpath: a stock Storm with only the schedulers.
        }
        if (SAID_UNAVAILABLE.compareAndSet(false, true)) {
            LOG.info("nonstop: Nimbus runs without the migration agent (-javaagent:nonstop-migration.jar=nimbus): "
                     + "written plans wait for the next periodic round (nimbus.monitor.freq.secs)");
        }
    }
}
