package io.nonstopstorm.migration.supervisor;

import io.nonstopstorm.migration.config.MigrationSettings;
import io.nonstopstorm.migration.plan.AssignmentFingerprint;
import io.nonstopstorm.migration.plan.ExecutorRange;
import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.plan.PlanStore;
import io.nonstopstorm.migration.plan.PortPlan;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.storm.generated.Assignment;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.LocalAssignment;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.utils.ConfigUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor half of nonstop migration.
 * <ul>
 *   <li>A slot whose executors (and therefore resources) change but whose topology stays the same keeps
 *       its worker: Storm would kill and relaunch it.</li>
 *   <li>Every time the supervisor reads its assignments it writes the node's local plan (per port:
 *       topology and executors; per topology: a placement fingerprint) to the node's plan store, which
 *       the workers follow.</li>
 * </ul>
 * Nothing here may ever throw into the supervisor: failures are logged and Storm carries on.
 */
public final class SupervisorHooks {
    private static final Logger LOG = LoggerFactory.getLogger(SupervisorHooks.class);
    private static volatile MigrationSettings settings;
    private static volatile PlanStore store;
    private static volatile String lastKept = "";

    private SupervisorHooks() {
    }

    private static MigrationSettings settings(Map<String, Object> conf) {
        MigrationSettings s = settings;
        if (s == null) {
            synchronized (SupervisorHooks.class) {
                if (settings == null) {
                    Map<String, Object> c = conf != null ? conf : ConfigUtils.readStormConfig();
                    settings = MigrationSettings.fromConf(c, Path.of(ConfigUtils.absoluteStormLocalDir(c)));
                    store = new PlanStore(settings.planFile(), System::currentTimeMillis);
                    LOG.info("nonstop: supervisor migration support {}; plan store {}",
                             settings.enabled() ? "on" : "off", settings.planFile());
                }
                s = settings;
            }
        }
        return s;
    }

    /**
     * Storm's verdict, overridden to "equivalent" when only executors or resources changed. Storm's Slot
     * asks with (new assignment, current assignment), so the log reads current -> new.
     */
    public static boolean equivalent(LocalAssignment first, LocalAssignment second, boolean stock) {
        if (stock || first == null || second == null) {
            return stock;
        }
        try {
            if (!settings(null).enabled() || !first.get_topology_id().equals(second.get_topology_id())) {
                return false;
            }
            String key = first.get_topology_id() + executors(second) + "->" + executors(first);
            if (!key.equals(lastKept)) {
                lastKept = key;
                LOG.info("nonstop: keeping the worker of {}: executors {} -> {}", first.get_topology_id(),
                         executors(second), executors(first));
            }
            return true;
        } catch (RuntimeException e) {
            LOG.error("nonstop: equivalence override failed; using Storm's answer", e);
            return false;
        }
    }

    private static SortedSet<ExecutorRange> executors(LocalAssignment la) {
        SortedSet<ExecutorRange> out = new TreeSet<>();
        for (ExecutorInfo e : la.get_executors()) {
            out.add(new ExecutorRange(e.get_task_start(), e.get_task_end()));
        }
        return out;
    }

    /** After ReadClusterState.readAssignments: publish the node's local plan. */
    public static void onAssignmentsRead(Map<String, Object> conf, Map<String, Assignment> snapshot,
                                         Map<Integer, LocalAssignment> local) {
        if (local == null) {
            return; // Storm could not read the assignments this round; it retries.
        }
        try {
            if (!settings(conf).enabled()) {
                return;
            }
            NodePlan published = store.publish(nodePlan(snapshot, local));
            LOG.debug("nonstop: plan store at v{}", published.version());
        } catch (Exception | LinkageError e) {
            LOG.error("nonstop: writing the node plan store failed; workers keep their last plan", e);
        }
    }

    static NodePlan nodePlan(Map<String, Assignment> snapshot, Map<Integer, LocalAssignment> local) {
        SortedMap<Integer, PortPlan> ports = new TreeMap<>();
        SortedMap<String, String> fingerprints = new TreeMap<>();
        for (Map.Entry<Integer, LocalAssignment> e : local.entrySet()) {
            LocalAssignment la = e.getValue();
            ports.put(e.getKey(), new PortPlan(la.get_topology_id(), executors(la)));
            Assignment whole = snapshot == null ? null : snapshot.get(la.get_topology_id());
            if (whole != null && whole.get_executor_node_port() != null) {
                fingerprints.put(la.get_topology_id(), AssignmentFingerprint.of(placement(whole)));
            }
        }
        return new NodePlan(0, 0, ports, fingerprints);
    }

    private static Map<ExecutorRange, String> placement(Assignment a) {
        Map<ExecutorRange, String> out = new HashMap<>();
        for (Map.Entry<List<Long>, NodeInfo> e : a.get_executor_node_port().entrySet()) {
            out.put(ExecutorRange.of(e.getKey()), e.getValue().get_node() + ":" + e.getValue().get_port());
        }
        return out;
    }
}
