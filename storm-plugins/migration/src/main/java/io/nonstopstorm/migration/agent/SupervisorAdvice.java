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

    /** ReadClusterState.readAssignments(Map): the node's whole local plan, on every sync. */
    static final class AssignmentsRead {
        @Advice.OnMethodExit
        static void exit(@Advice.FieldValue("superConf") Map<String, Object> conf,
                         @Advice.Argument(0) Map<String, Assignment> snapshot,
                         @Advice.Return Map<Integer, LocalAssignment> local) {
            SupervisorHooks.onAssignmentsRead(conf, snapshot, local);
        }
    }
}
