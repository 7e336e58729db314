package io.nonstopstorm.migration.verify;

import java.util.Map;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This JVM's verdict, set once by the agent at start-up. Every hook asks {@link #on()} and passes
 * through to stock Storm when it is false, so a Storm the agent does not fully match is never
 * half-changed. When the only objection is an unverified Storm version, the verdict waits for the
 * daemon's configuration ({@link #resolve}), which may carry the override.
 */
public final class AgentStatus {
    private static final Logger LOG = LoggerFactory.getLogger(AgentStatus.class);
    private static volatile VerificationReport report;
    private static boolean announced;

    private AgentStatus() {
    }

    /** The agent's verdict at start-up; logs the ERROR line at once when something is missing. */
    public static synchronized void set(VerificationReport r) {
        report = r;
        announced = false;
        if (r.migrationOn() || !r.missing().isEmpty()) {
            announce(); // else only the version objects: the daemon's conf may still allow it
        }
    }

    /** Null until the agent verified itself (never, when the hooks run without the agent, as in unit tests). */
    public static VerificationReport report() {
        return report;
    }

    /** False when the agent found something missing, or the Storm version is unverified without override. */
    public static boolean on() {
        VerificationReport r = report;
        return r == null || r.migrationOn();
    }

    /**
     * Applies the daemon's configuration: {@value VerificationReport#ALLOW_UNVERIFIED}{@code : true} there
     * allows an unverified Storm version. Logs the verdict once (ERROR when off). Never throws.
     */
    public static synchronized VerificationReport resolve(Map<String, Object> conf) {
        VerificationReport r = report;
        if (r == null) {
            return null;
        }
        if (!r.allowUnverified() && conf != null
            && ObjectReader.getBoolean(conf.get(VerificationReport.ALLOW_UNVERIFIED), false)) {
            r = new VerificationReport(r.role(), r.stormVersion(), r.versionVerified(), true, r.missing());
            report = r;
        }
        announce();
        return r;
    }

    private static void announce() {
        VerificationReport r = report;
        if (announced || r == null) {
            return;
        }
        announced = true;
        if (!r.migrationOn()) {
            LOG.error(r.errorLine());
        } else if (!r.versionVerified()) {
            LOG.warn("nonstop: Storm {} is not a verified version ({}); migration runs anyway because {} is set",
                     r.stormVersion(), VerifiedStormVersions.all(), VerificationReport.ALLOW_UNVERIFIED);
        } else {
            LOG.info("nonstop: agent verified in this {} JVM: Storm {}, every advice woven, every Storm member found",
                     r.role(), r.stormVersion());
        }
    }
}
