package io.nonstopstorm.migration.nimbus;

import io.nonstopstorm.migration.verify.AgentStatus;
import io.nonstopstorm.migration.verify.VerificationReport;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import org.apache.storm.StormTimer;
import org.apache.storm.daemon.worker.NonstopInternals;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.ServerConfigUtils;
import org.apache.storm.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets the nonstop scheduler ask Nimbus for a scheduling round now, instead of waiting for the next
 * periodic one ({@code nimbus.monitor.freq.secs}, at least 1 s): a controller's plan then takes effect in
 * the time of one round rather than up to a whole period later.
 *
 * <p>Installed by the agent ({@code -javaagent:nonstop-migration.jar=nimbus}) once
 * {@code Nimbus.launchServer()} has returned. A requested round is Nimbus's own private
 * {@code mkAssignments()}, queued on Nimbus's own timer, the thread that runs the periodic rounds and
 * rebalances, so rounds never overlap (as in Storm, where only that thread assigns). That thread sleeps up
 * to 1 s before it looks at a new task; the agent routes its sleeps through {@link #sleepIfTimer}, and a
 * request wakes it. A round does nothing unless this Nimbus is the leader and has recovered its
 * assignments (Storm's own check). Without the agent, {@link #request} returns false and plans wait for
 * the periodic round.
 */
public final class NimbusRounds {
    private static final Logger LOG = LoggerFactory.getLogger(NimbusRounds.class);
    private static final TimerWake WAKE = new TimerWake();

    private static volatile RoundRequests requests;
    private static volatile Thread timerThread;

    private NimbusRounds() {
    }

    /** Called by the agent's advice with the Nimbus whose server has just launched. Never throws. */
    public static void install(Object nimbus) {
        try {
            VerificationReport report = AgentStatus.report();
            if (report != null && !report.missing().isEmpty()) {
                return; // the agent does not match this Nimbus (ERROR logged at start): stock rounds only
            }
            Map<String, Object> conf = NonstopInternals.nimbusConf(nimbus);
            AgentStatus.resolve(conf);
            if (!AgentStatus.on()) {
                return;
            }
            if (ObjectReader.getBoolean(conf.get(ServerConfigUtils.NIMBUS_DO_NOT_REASSIGN), false)) {
                LOG.info("nonstop: Nimbus does not reassign ({}); plans are not applied on request",
                         ServerConfigUtils.NIMBUS_DO_NOT_REASSIGN);
                return;
            }
            StormTimer timer = NonstopInternals.nimbusTimer(nimbus);
            Thread thread = NonstopInternals.timerThread(timer);
            timerThread = thread;
            requests = new RoundRequests(task -> {
                timer.scheduleMs(0, task);
                WAKE.wake();
            }, () -> runRound(nimbus));
            LOG.info("nonstop: a written plan now starts a scheduling round at once (on Nimbus's timer thread '{}'), "
                     + "besides the periodic rounds", thread.getName());
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("nonstop: cannot start scheduling rounds on request ({}); plans wait for the periodic round",
                     e.toString());
        }
    }

    /**
     * Asks for a round soon; {@code why} goes to Nimbus's log. Returns false when rounds on request are not
     * installed (no agent, Nimbus not launched yet, or its timer is closed). Never throws.
     */
    public static boolean request(String why) {
        RoundRequests r = requests;
        if (r == null) {
            return false;
        }
        try {
            boolean queued = r.request();
            LOG.info("nonstop: scheduling round requested: {}{}", why, queued ? "" : " (a requested round is already waiting)");
            return true;
        } catch (RuntimeException e) {
            LOG.warn("nonstop: cannot request a scheduling round ({}): {}", e.toString(), why);
            return false;
        }
    }

    /**
     * Start of {@code Time.sleep(ms)} on any thread (advice): on Nimbus's timer thread the sleep is taken
     * here, where a request can cut it short, and true is returned so Storm's own sleep is skipped.
     */
    public static boolean sleepIfTimer(long ms) throws InterruptedException {
        if (Thread.currentThread() != timerThread || Time.isSimulating()) {
            return false;
        }
        WAKE.sleep(ms);
        return true;
    }

    private static void runRound(Object nimbus) {
        long t0 = System.nanoTime();
        try {
            NonstopInternals.mkAssignments(nimbus);
            LOG.info("nonstop: requested scheduling round done in {} ms", (System.nanoTime() - t0) / 1_000_000);
        } catch (InvocationTargetException e) {
            // Storm's periodic round halts Nimbus on such a failure; a requested one only logs it: the
            // periodic round still runs and decides that for itself.
            LOG.warn("nonstop: requested scheduling round failed; the periodic rounds go on", e.getCause());
        } catch (RuntimeException e) {
            LOG.warn("nonstop: requested scheduling round could not run; the periodic rounds go on", e);
        }
    }
}
