package io.nonstopstorm.migration.agent;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Modifier;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

/**
 * {@code -javaagent:nonstop-migration.jar=worker} (in worker.childopts), {@code =supervisor} (in the
 * supervisor's JVM options) or {@code =nimbus} (in Nimbus's). Weaves the advice into Storm's classes as
 * they load; whether migration is actually on is decided later from storm.yaml
 * ({@code nonstop.migration.enabled}). Nimbus's advice only adds scheduling rounds on request.
 */
public final class NonstopAgent {
    private NonstopAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        String role = args == null ? "" : args.trim();
        AgentBuilder builder = new AgentBuilder.Default()
            .with(AgentBuilder.Listener.StreamWriting.toSystemError().withErrorsOnly());
        switch (role) {
            case "worker" -> worker(builder).installOn(inst);
            case "supervisor" -> supervisor(builder).installOn(inst);
            case "nimbus" -> nimbus(builder).installOn(inst);
            default -> {
                System.err.println("nonstop-migration agent: unknown role '" + role
                                   + "' (use -javaagent:<jar>=worker, =supervisor or =nimbus); not installed");
                return;
            }
        }
        System.err.println("nonstop-migration agent installed (" + role + ")");
    }

    /** The advice classes are described from their class files, so installing loads no Storm class early. */
    private static final ClassFileLocator LOCATOR = ClassFileLocator.ForClassLoader.of(NonstopAgent.class.getClassLoader());
    private static final TypePool POOL = TypePool.Default.of(LOCATOR);

    private static Advice advice(Class<?> holder) {
        TypeDescription type = POOL.describe(holder.getName()).resolve();
        return Advice.to(type, LOCATOR);
    }

    private static AgentBuilder worker(AgentBuilder b) {
        return b
            .type(named("org.apache.storm.daemon.worker.WorkerState"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(WorkerAdvice.StateCreated.class).on(isConstructor()))
                .visit(advice(WorkerAdvice.AssignmentCheck.class).on(named("suicideIfLocalAssignmentsChanged")))
                .visit(advice(WorkerAdvice.Refresh.class).on(named("refreshConnections").and(takesArguments(0))))
                .visit(advice(WorkerAdvice.AssignmentRead.class).on(named("getLocalAssignment").and(takesArguments(2))))
                .visit(advice(WorkerAdvice.LocalBatch.class).on(named("transferLocalBatch")))
                .visit(advice(WorkerAdvice.StormActive.class).on(named("refreshStormActive").and(takesArguments(1)))))
            .type(named("org.apache.storm.daemon.worker.Worker"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(WorkerAdvice.Loaded.class).on(named("loadWorker")))
                .visit(advice(WorkerAdvice.FlushTimer.class).on(named("setupFlushTupleTimer")))
                .visit(advice(WorkerAdvice.BackPressureTimer.class).on(named("setupBackPressureCheckTimer")))
                .visit(advice(WorkerAdvice.Shutdown.class).on(named("shutdown").and(takesArguments(0)))))
            .type(named("org.apache.storm.executor.ExecutorTransfer"))
            .transform((builder, type, loader, module, pd) -> builder
                .defineField(AgentFields.EPOCH, int.class, Modifier.PRIVATE)
                .visit(advice(WorkerAdvice.TransferRoutes.class).on(named("tryTransfer"))))
            .type(named("org.apache.storm.executor.bolt.BoltExecutor")
                      .or(named("org.apache.storm.executor.spout.SpoutExecutor")))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(WorkerAdvice.ExecutorInit.class).on(named("init").and(takesArguments(2)))))
            .type(named("org.apache.storm.task.ShellBolt").or(named("org.apache.storm.spout.ShellSpout")))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(WorkerAdvice.ShellDie.class).on(named("die").and(takesArguments(1)))))
            .type(named("org.apache.storm.assignments.LocalAssignmentsBackendFactory"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(WorkerAdvice.AssignmentsBackend.class).on(named("getDefault").and(takesArguments(0)))))
            .type(named("org.apache.storm.StormTimer"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(WorkerAdvice.RecurringTimer.class).on(named("scheduleRecurring").and(takesArguments(3))))
                .visit(advice(WorkerAdvice.TimerSchedule.class).on(named("scheduleMs").and(takesArguments(4)))));
    }

    private static AgentBuilder supervisor(AgentBuilder b) {
        return b
            .type(named("org.apache.storm.utils.EquivalenceUtils"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(SupervisorAdvice.Equivalence.class).on(named("areLocalAssignmentsEquivalent"))))
            .type(named("org.apache.storm.daemon.supervisor.ReadClusterState"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(SupervisorAdvice.AssignmentsRead.class).on(named("readAssignments"))))
            .type(named("org.apache.storm.cluster.StormClusterStateImpl"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(SupervisorAdvice.AssignmentsSynced.class).on(named("syncRemoteAssignments"))));
    }

    private static AgentBuilder nimbus(AgentBuilder b) {
        return b
            .type(named("org.apache.storm.daemon.nimbus.Nimbus"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(NimbusAdvice.Launched.class).on(named("launchServer").and(takesArguments(0)))))
            .type(named("org.apache.storm.utils.Time"))
            .transform((builder, type, loader, module, pd) -> builder
                .visit(advice(NimbusAdvice.TimerSleep.class).on(named("sleep").and(takesArguments(long.class)))));
    }
}
