package io.nonstopstorm.migration.agent;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.nonstopstorm.migration.verify.AgentStatus;
import io.nonstopstorm.migration.verify.VerificationReport;
import io.nonstopstorm.migration.verify.WovenAdvice;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;
import org.apache.storm.daemon.worker.NonstopInternals;
import org.apache.storm.utils.VersionInfo;

/**
 * {@code -javaagent:nonstop-migration.jar=worker} (in worker.childopts), {@code =supervisor} (in the
 * supervisor's JVM options) or {@code =nimbus} (in Nimbus's). Weaves the advice into Storm's classes,
 * then verifies itself before Storm starts: Storm's version is on {@code VerifiedStormVersions} (or
 * {@value VerificationReport#ALLOW_UNVERIFIED} is set), every advice of the role was woven (the target
 * classes are loaded here, so the check does not wait for Storm to load them) and every Storm member
 * reached by reflection exists with its type ({@link NonstopInternals}). If anything is missing,
 * migration is off in this JVM ({@link AgentStatus}): every advice passes through and the daemon runs
 * stock Storm. Whether migration is actually on is decided later from storm.yaml
 * ({@code nonstop.migration.enabled}). Nimbus's advice only adds scheduling rounds on request.
 */
public final class NonstopAgent {
    /** Test only: comma-separated advice names ({@code Type.method}) to leave out, as if Storm lacked them. */
    public static final String TEST_SKIP_ADVICE = "nonstop.migration.test.skip.advice";

    private static final WovenAdvice WOVEN = new WovenAdvice();
    private static final Set<String> SKIPPED = Arrays.stream(System.getProperty(TEST_SKIP_ADVICE, "").split(","))
        .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());

    private NonstopAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        String role = args == null ? "" : args.trim();
        Map<String, String> targets = new LinkedHashMap<>();
        AgentBuilder builder = new AgentBuilder.Default()
            .with(new AgentBuilder.Listener.Compound(new Recorder(),
                                                     AgentBuilder.Listener.StreamWriting.toSystemError().withErrorsOnly()));
        switch (role) {
            case "worker" -> worker(builder, targets).installOn(inst);
            case "supervisor" -> supervisor(builder, targets).installOn(inst);
            case "nimbus" -> nimbus(builder, targets).installOn(inst);
            default -> {
                System.err.println("nonstop-migration agent: unknown role '" + role
                                   + "' (use -javaagent:<jar>=worker, =supervisor or =nimbus); not installed");
                return;
            }
        }
        System.err.println("nonstop-migration agent installed (" + role + ")");
        AgentStatus.set(verify(role, targets));
        if (role.equals("supervisor")) {
            SupervisorRecord.startPublishing();
        }
    }

    /** Loads each target class (so it is woven now), then compares what was woven with what is needed. */
    private static VerificationReport verify(String role, Map<String, String> targets) {
        List<String> members = new ArrayList<>();
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        for (String type : new LinkedHashSet<>(targets.values())) {
            try {
                Class.forName(type, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                members.add("class " + type + " missing");
            }
        }
        members.addAll(WOVEN.errors());
        String version;
        try {
            version = VersionInfo.getVersion();
            members.addAll(NonstopInternals.problems(role));
        } catch (RuntimeException | LinkageError e) {
            version = "unknown";
            members.add("Storm's classes unreadable (" + e + ")");
        }
        boolean allow = Boolean.getBoolean(VerificationReport.ALLOW_UNVERIFIED);
        return VerificationReport.of(role, version, targets.keySet(), WOVEN.woven(), members, allow);
    }

    /** Counts an advice as woven once ByteBuddy has transformed its type. */
    private static final class Recorder extends AgentBuilder.Listener.Adapter {
        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                     DynamicType dynamicType) {
            WOVEN.transformed(type.getName());
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
            WOVEN.failed(typeName, error);
        }
    }

    /** The advice classes are described from their class files, so installing loads no Storm class early. */
    private static final ClassFileLocator LOCATOR = ClassFileLocator.ForClassLoader.of(NonstopAgent.class.getClassLoader());
    private static final TypePool POOL = TypePool.Default.of(LOCATOR);

    private static Advice advice(Class<?> holder) {
        TypeDescription type = POOL.describe(holder.getName()).resolve();
        return Advice.to(type, LOCATOR);
    }

    /**
     * Weaves {@code holder} into the methods of {@code type} that {@code on} matches and notes it under
     * {@code name}; a type without such a method (renamed, other parameters) gets nothing and the note is
     * missing, which {@link #verify} reports.
     */
    private static DynamicType.Builder<?> weave(DynamicType.Builder<?> builder, TypeDescription type, String name,
                                                Class<?> holder, ElementMatcher<? super MethodDescription> on) {
        if (SKIPPED.contains(name) || type.getDeclaredMethods().filter(on).isEmpty()) {
            return builder;
        }
        WOVEN.matched(type.getName(), name);
        return builder.visit(advice(holder).on(on));
    }

    /** Registers advice names (Type.method) with the class they go into. */
    private static void need(Map<String, String> targets, String type, String... names) {
        String simple = type.substring(type.lastIndexOf('.') + 1);
        for (String n : names) {
            targets.put(simple + "." + n, type);
        }
    }

    private static final String WORKER_STATE = "org.apache.storm.daemon.worker.WorkerState";
    private static final String WORKER = "org.apache.storm.daemon.worker.Worker";
    private static final String TRANSFER = "org.apache.storm.executor.ExecutorTransfer";
    private static final String BOLT_EXECUTOR = "org.apache.storm.executor.bolt.BoltExecutor";
    private static final String SPOUT_EXECUTOR = "org.apache.storm.executor.spout.SpoutExecutor";
    private static final String SHELL_BOLT = "org.apache.storm.task.ShellBolt";
    private static final String SHELL_SPOUT = "org.apache.storm.spout.ShellSpout";
    private static final String BACKEND_FACTORY = "org.apache.storm.assignments.LocalAssignmentsBackendFactory";
    private static final String STORM_TIMER = "org.apache.storm.StormTimer";
    private static final String DRAINER = "org.apache.storm.utils.TransferDrainer";

    private static AgentBuilder worker(AgentBuilder b, Map<String, String> targets) {
        need(targets, WORKER_STATE, "<init>", "suicideIfLocalAssignmentsChanged", "refreshConnections", "getLocalAssignment",
             "transferLocalBatch", "refreshStormActive");
        need(targets, WORKER, "loadWorker", "setupFlushTupleTimer", "setupBackPressureCheckTimer", "shutdown");
        need(targets, TRANSFER, "tryTransfer");
        need(targets, BOLT_EXECUTOR, "init", "init+handoff", "tupleActionFn");
        need(targets, SPOUT_EXECUTOR, "init");
        need(targets, SHELL_BOLT, "die");
        need(targets, SHELL_SPOUT, "die");
        need(targets, BACKEND_FACTORY, "getDefault");
        need(targets, STORM_TIMER, "scheduleRecurring", "scheduleMs");
        need(targets, DRAINER, "send");
        return b
            .type(named(WORKER_STATE))
            .transform((builder, type, loader, module, pd) -> {
                builder = weave(builder, type, "WorkerState.<init>", WorkerAdvice.StateCreated.class, isConstructor());
                builder = weave(builder, type, "WorkerState.suicideIfLocalAssignmentsChanged",
                                WorkerAdvice.AssignmentCheck.class, named("suicideIfLocalAssignmentsChanged"));
                builder = weave(builder, type, "WorkerState.refreshConnections", WorkerAdvice.Refresh.class,
                                named("refreshConnections").and(takesArguments(0)));
                builder = weave(builder, type, "WorkerState.getLocalAssignment", WorkerAdvice.AssignmentRead.class,
                                named("getLocalAssignment").and(takesArguments(2)));
                builder = weave(builder, type, "WorkerState.transferLocalBatch", WorkerAdvice.LocalBatch.class,
                                named("transferLocalBatch"));
                return weave(builder, type, "WorkerState.refreshStormActive", WorkerAdvice.StormActive.class,
                             named("refreshStormActive").and(takesArguments(1)));
            })
            .type(named(WORKER))
            .transform((builder, type, loader, module, pd) -> {
                builder = weave(builder, type, "Worker.loadWorker", WorkerAdvice.Loaded.class, named("loadWorker"));
                builder = weave(builder, type, "Worker.setupFlushTupleTimer", WorkerAdvice.FlushTimer.class,
                                named("setupFlushTupleTimer"));
                builder = weave(builder, type, "Worker.setupBackPressureCheckTimer", WorkerAdvice.BackPressureTimer.class,
                                named("setupBackPressureCheckTimer"));
                return weave(builder, type, "Worker.shutdown", WorkerAdvice.Shutdown.class,
                             named("shutdown").and(takesArguments(0)));
            })
            .type(named(TRANSFER))
            .transform((builder, type, loader, module, pd) -> weave(
                builder.defineField(AgentFields.EPOCH, int.class, Modifier.PRIVATE), type, "ExecutorTransfer.tryTransfer",
                WorkerAdvice.TransferRoutes.class, named("tryTransfer")))
            .type(named(BOLT_EXECUTOR).or(named(SPOUT_EXECUTOR)))
            .transform((builder, type, loader, module, pd) -> {
                builder = weave(builder, type, type.getSimpleName() + ".init", WorkerAdvice.ExecutorInit.class,
                                named("init").and(takesArguments(2)));
                if (!type.getName().equals(BOLT_EXECUTOR)) {
                    return builder;
                }
                builder = weave(builder, type, "BoltExecutor.init+handoff", WorkerAdvice.BoltInit.class,
                                named("init").and(takesArguments(2)));
                return weave(builder, type, "BoltExecutor.tupleActionFn", WorkerAdvice.BoltTuple.class,
                             named("tupleActionFn").and(takesArguments(2)));
            })
            .type(named(SHELL_BOLT).or(named(SHELL_SPOUT)))
            .transform((builder, type, loader, module, pd) -> weave(
                builder, type, type.getSimpleName() + ".die", WorkerAdvice.ShellDie.class, named("die").and(takesArguments(1))))
            .type(named(BACKEND_FACTORY))
            .transform((builder, type, loader, module, pd) -> weave(
                builder, type, "LocalAssignmentsBackendFactory.getDefault", WorkerAdvice.AssignmentsBackend.class,
                named("getDefault").and(takesArguments(0))))
            .type(named(STORM_TIMER))
            .transform((builder, type, loader, module, pd) -> {
                builder = weave(builder, type, "StormTimer.scheduleRecurring", WorkerAdvice.RecurringTimer.class,
                                named("scheduleRecurring").and(takesArguments(3)));
                return weave(builder, type, "StormTimer.scheduleMs", WorkerAdvice.TimerSchedule.class,
                             named("scheduleMs").and(takesArguments(4)));
            })
            .type(named(DRAINER))
            .transform((builder, type, loader, module, pd) -> weave(
                builder, type, "TransferDrainer.send", WorkerAdvice.RemoteSend.class,
                named("send").and(takesArguments(2))));
    }

    private static final String EQUIVALENCE = "org.apache.storm.utils.EquivalenceUtils";
    private static final String READ_CLUSTER_STATE = "org.apache.storm.daemon.supervisor.ReadClusterState";
    private static final String CLUSTER_STATE = "org.apache.storm.cluster.StormClusterStateImpl";

    private static AgentBuilder supervisor(AgentBuilder b, Map<String, String> targets) {
        need(targets, EQUIVALENCE, "areLocalAssignmentsEquivalent");
        need(targets, READ_CLUSTER_STATE, "readAssignments");
        need(targets, CLUSTER_STATE, "syncRemoteAssignments");
        return b
            .type(named(EQUIVALENCE))
            .transform((builder, type, loader, module, pd) -> weave(
                builder, type, "EquivalenceUtils.areLocalAssignmentsEquivalent", SupervisorAdvice.Equivalence.class,
                named("areLocalAssignmentsEquivalent")))
            .type(named(READ_CLUSTER_STATE))
            .transform((builder, type, loader, module, pd) -> weave(
                builder, type, "ReadClusterState.readAssignments", SupervisorAdvice.AssignmentsRead.class,
                named("readAssignments")))
            .type(named(CLUSTER_STATE))
            .transform((builder, type, loader, module, pd) -> weave(
                builder, type, "StormClusterStateImpl.syncRemoteAssignments", SupervisorAdvice.AssignmentsSynced.class,
                named("syncRemoteAssignments")));
    }

    private static final String NIMBUS = "org.apache.storm.daemon.nimbus.Nimbus";
    private static final String TIME = "org.apache.storm.utils.Time";

    private static AgentBuilder nimbus(AgentBuilder b, Map<String, String> targets) {
        need(targets, NIMBUS, "launchServer");
        need(targets, TIME, "sleep");
        return b
            .type(named(NIMBUS))
            .transform((builder, type, loader, module, pd) -> weave(
                builder, type, "Nimbus.launchServer", NimbusAdvice.Launched.class,
                named("launchServer").and(takesArguments(0))))
            .type(named(TIME))
            .transform((builder, type, loader, module, pd) -> weave(
                builder, type, "Time.sleep", NimbusAdvice.TimerSleep.class,
                named("sleep").and(takesArguments(long.class))));
    }
}
