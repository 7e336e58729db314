package io.nonstopstorm.migration.agent;

import io.nonstopstorm.migration.supervisor.SupervisorHooks;
import java.util.Map;
import net.bytebuddy.asm.Advice;
import org.apache.storm.generated.Assignment;
import org.apache.storm.generated.LocalAssignment;

/** ByteBuddy advice woven into Storm's supervisor classes; see {@link SupervisorHooks}. */
final class SupervisorAdvice {
    private SupervisorAdvice() {
    }

    /** EquivalenceUtils.areLocalAssignmentsEquivalent: same topology on the same port keeps its worker. */
    static final class Equivalence {
        @Advice.OnMethodExit
        static void exit(@Advice.Argument(0) LocalAssignment first, @Advice.Argument(1) LocalAssignment second,
                         @Advice.Return(readOnly = false) boolean equivalent) {
            equivalent = SupervisorHooks.equivalent(first, second, equivalent);
        }
    }

    /** ReadClusterState.readAssignments(Map): the node's whole local plan, on every sync; held back (null)
     *  until Nimbus's assignments arrived. */
    static final class AssignmentsRead {
        @Advice.OnMethodExit
        static void exit(@Advice.FieldValue("superConf") Map<String, Object> conf,
                         @Advice.Argument(0) Map<String, Assignment> snapshot,
                         @Advice.Return(readOnly = false) Map<Integer, LocalAssignment> local) {
            local = SupervisorHooks.onAssignmentsRead(conf, snapshot, local);
        }
    }

    /** StormClusterStateImpl.syncRemoteAssignments(Map): Nimbus's assignments reached the local backend. */
    static final class AssignmentsSynced {
        @Advice.OnMethodExit
        static void exit() {
            SupervisorHooks.onAssignmentsSynced();
        }
    }
}
