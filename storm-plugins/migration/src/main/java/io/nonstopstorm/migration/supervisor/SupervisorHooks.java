package io.nonstopstorm.migration.supervisor;

import io.nonstopstorm.migration.config.MigrationSettings;
import io.nonstopstorm.migration.plan.AssignmentFingerprint;
import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.plan.PlanStore;
import io.nonstopstorm.migration.plan.PortPlan;
import io.nonstopstorm.migration.verify.AgentStatus;
import io.nonstopstorm.wire.ExecutorId;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.storm.generated.Assignment;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.LocalAssignment;
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
 *   <li>A supervisor that has not yet received its assignments from Nimbus since it started acts on none
 *       ({@link AssignmentGate}): Storm would read "nothing assigned" and kill the node's workers.</li>
 * </ul>
 * Nothing here may ever throw into the supervisor: failures are logged and Storm carries on.
 */
public final class SupervisorHooks {
    private static final Logger LOG = LoggerFactory.getLogger(SupervisorHooks.class);
    private static volatile MigrationSettings settings;
    private static volatile PlanStore store;
    private static volatile String lastKept = "";
    private static final AssignmentGate GATE = new AssignmentGate();

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
        if (stock || first == null || second == null || !AgentStatus.on()) {
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

    private static SortedSet<ExecutorId> executors(LocalAssignment la) {
        SortedSet<ExecutorId> out = new TreeSet<>();
        for (ExecutorInfo e : la.get_executors()) {
            out.add(new ExecutorId(e.get_task_start(), e.get_task_end()));
        }
        return out;
    }

    /** StormClusterStateImpl.syncRemoteAssignments returned: Nimbus's assignments for this node are local. */
    public static void onAssignmentsSynced() {
        if (!AgentStatus.on()) {
            return;
        }
        GATE.assignmentsReceived();
    }

    /**
     * After ReadClusterState.readAssignments: what the supervisor acts on (null: "try again later", while
     * Nimbus's assignments have not arrived since start-up), and the node's local plan is published.
     */
    public static Map<Integer, LocalAssignment> onAssignmentsRead(Map<String, Object> conf, Map<String, Assignment> snapshot,
                                                                  Map<Integer, LocalAssignment> local) {
        if (local == null) {
            return null; // Storm could not read the assignments this round; it retries.
        }
        AgentStatus.resolve(conf);
        if (!AgentStatus.on()) {
            return local; // the agent does not match this Storm: stock behaviour
        }
        try {
            if (!settings(conf).enabled()) {
                return local;
            }
            Map<Integer, LocalAssignment> admitted = GATE.admit(local);
            switch (GATE.note()) {
                case HOLDING -> LOG.warn("nonstop: no assignments from Nimbus yet since this supervisor started; "
                                         + "keeping the running workers as they are until Nimbus answers "
                                         + "(Storm would read 'nothing assigned' and kill them)");
                case OPENED -> LOG.info("nonstop: assignments received from Nimbus; supervising the workers again");
                default -> { }
            }
            if (admitted == null) {
                return null;
            }
            NodePlan published = store.publish(nodePlan(snapshot, local));
            LOG.debug("nonstop: plan store at v{}", published.version());
        } catch (Exception | LinkageError e) {
            LOG.error("nonstop: writing the node plan store failed; workers keep their last plan", e);
        }
        return local;
    }

    static NodePlan nodePlan(Map<String, Assignment> snapshot, Map<Integer, LocalAssignment> local) {
        SortedMap<Integer, PortPlan> ports = new TreeMap<>();
        SortedMap<String, String> fingerprints = new TreeMap<>();
        for (Map.Entry<Integer, LocalAssignment> e : local.entrySet()) {
            LocalAssignment la = e.getValue();
            ports.put(e.getKey(), new PortPlan(la.get_topology_id(), executors(la)));
            Assignment whole = snapshot == null ? null : snapshot.get(la.get_topology_id());
            if (whole != null && whole.get_executor_node_port() != null) {
                fingerprints.put(la.get_topology_id(), AssignmentFingerprint.ofAssignment(whole.get_executor_node_port()));
            }
        }
        return new NodePlan(0, 0, ports, fingerprints);
    }
}
