package io.nonstopstorm.migration.reconcile;

import io.nonstopstorm.migration.plan.NodePlan;
import io.nonstopstorm.migration.plan.PortPlan;
import io.nonstopstorm.wire.ExecutorId;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Decides what a worker should run, from the node's plan store (primary: it is what the supervisor
 * derived for this node) and Storm's own assignment (fallback while the store lags or is unreadable).
 * Where Storm would make the worker exit, this says so too: an executor change alone never does.
 */
public final class DesiredExecutors {

    public enum Source { PLAN_STORE, ASSIGNMENT }

    /**
     * Either "exit like stock Storm would" or "run these executors". {@code staleStoreFingerprint} is the
     * plan store's fingerprint when the store described this worker but was passed over because it was
     * written for another placement (null otherwise), so the worker can say so.
     */
    public record Decision(boolean exit, SortedSet<ExecutorId> executors, Source source, String reason,
                           String staleStoreFingerprint) {
        static Decision exit(String reason) {
            return new Decision(true, new TreeSet<>(), null, reason, null);
        }

        static Decision run(Set<ExecutorId> executors, Source source, String staleStoreFingerprint) {
            SortedSet<ExecutorId> all = new TreeSet<>(executors);
            all.add(ExecutorId.SYSTEM);
            return new Decision(false, all, source, "", staleStoreFingerprint);
        }
    }

    private DesiredExecutors() {
    }

    /**
     * @param topologyId       the worker's topology
     * @param port             the worker's port
     * @param plan             the node's plan store, if readable
     * @param assignment       the executors Storm's current assignment gives this worker (system executor
     *                         excluded), or empty when the topology has no assignment any more
     */
    public static Decision decide(String topologyId, int port, Optional<NodePlan> plan,
                                  Optional<Set<ExecutorId>> assignment) {
        return decide(topologyId, port, plan, assignment, Optional.empty());
    }

    /**
     * As above; {@code assignmentFingerprint} is the {@link io.nonstopstorm.migration.plan.AssignmentFingerprint}
     * of that assignment's whole placement. A plan store whose fingerprint for the topology differs was
     * written for another placement (its supervisor has not synced since Nimbus changed it, e.g. it is
     * down): it never overrides the assignment.
     */
    public static Decision decide(String topologyId, int port, Optional<NodePlan> plan,
                                  Optional<Set<ExecutorId>> assignment, Optional<String> assignmentFingerprint) {
        if (assignment.isEmpty()) {
            return Decision.exit("the topology has no assignment (killed?)");
        }
        Optional<PortPlan> mine = plan.flatMap(p -> p.port(port));
        String stale = null;
        if (mine.isPresent() && mine.get().topologyId().equals(topologyId)) {
            if (current(plan.get(), topologyId, assignmentFingerprint)) {
                return Decision.run(mine.get().executors(), Source.PLAN_STORE, null);
            }
            stale = plan.get().topologyFingerprints().get(topologyId);
        }
        Set<ExecutorId> assigned = new TreeSet<>(assignment.get());
        assigned.removeIf(ExecutorId::isSystem);
        if (assigned.isEmpty()) {
            return Decision.exit("this slot no longer runs anything of " + topologyId);
        }
        return Decision.run(assigned, Source.ASSIGNMENT, stale);
    }

    /** The store was written for this assignment (or cannot tell: no fingerprint on either side). */
    static boolean current(NodePlan plan, String topologyId, Optional<String> assignmentFingerprint) {
        String stored = plan.topologyFingerprints().get(topologyId);
        return stored == null || assignmentFingerprint.isEmpty() || stored.equals(assignmentFingerprint.get());
    }
}
