package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.core.ConsistentGrouping;
import io.nonstopstorm.grouping.core.GroupingDefaults;
import io.nonstopstorm.grouping.core.KeyRouter;
import io.nonstopstorm.grouping.signal.DelegationPolicy;
import io.nonstopstorm.grouping.signal.LoadSignals;
import io.nonstopstorm.grouping.signal.LoadSignalsProvider;
import io.nonstopstorm.grouping.signal.NoLoadSignals;
import io.nonstopstorm.grouping.signal.SignalEdge;
import io.nonstopstorm.grouping.signal.WorkerSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.InvocationTargetException;
import java.util.List;

/**
 * Consistent Grouping as a Storm grouping. Constructor arguments (usable from Flux-style
 * {@code custom_object(class, args)}):
 * <ul>
 *   <li>{@code keyFields}: fields forming the key (empty: all values);</li>
 *   <li>{@code epsilon}: PoRC imbalance factor, default {@value GroupingDefaults#EPSILON};</li>
 *   <li>{@code virtualWorkersPerWorker}: default {@value GroupingDefaults#VIRTUAL_WORKERS_PER_WORKER};</li>
 *   <li>{@code idleBelow}, {@code busyAbove}, {@code timeSlotMillis}: worker delegation, defaults
 *       {@value GroupingDefaults#IDLE_BELOW}, {@value GroupingDefaults#BUSY_ABOVE},
 *       {@value GroupingDefaults#TIME_SLOT_MILLIS} ms; registered on the signal channel for the
 *       worker side;</li>
 *   <li>{@code signalsProvider}: class name of a {@link LoadSignalsProvider} (public no-arg
 *       constructor), default {@link MetricsPlaneLoadSignals} (the workers' load as the metrics plane
 *       publishes it; across processes); {@link NoLoadSignals} keeps the even VW table;
 *       {@code io.nonstopstorm.grouping.signal.InProcessLoadSignals} works when sources and
 *       workers share a JVM and the worker bolts report themselves.</li>
 * </ul>
 * Signals that reached this source are applied before each routing decision; every virtual-worker move
 * is logged ({@code CG edge <channel> source <task>: moved VW <vw> from worker <a> to <b>}) so that runs can
 * count how often keys were re-routed.
 */
public class ConsistentGroupingStreamGrouping extends RoutingStreamGrouping {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ConsistentGroupingStreamGrouping.class);

    private final double epsilon;
    private final int virtualWorkersPerWorker;
    private final DelegationPolicy policy;
    private final String signalsProvider;
    private transient LoadSignals signals;
    private transient ConsistentGrouping cg;
    private transient String channel;

    public ConsistentGroupingStreamGrouping() {
        this(List.of());
    }

    public ConsistentGroupingStreamGrouping(List<String> keyFields) {
        this(keyFields, GroupingDefaults.EPSILON, GroupingDefaults.VIRTUAL_WORKERS_PER_WORKER);
    }

    public ConsistentGroupingStreamGrouping(List<String> keyFields, double epsilon, int virtualWorkersPerWorker) {
        this(keyFields, epsilon, virtualWorkersPerWorker, GroupingDefaults.IDLE_BELOW, GroupingDefaults.BUSY_ABOVE,
                GroupingDefaults.TIME_SLOT_MILLIS, MetricsPlaneLoadSignals.class.getName());
    }

    public ConsistentGroupingStreamGrouping(List<String> keyFields, double epsilon, int virtualWorkersPerWorker,
                                            double idleBelow, double busyAbove, long timeSlotMillis,
                                            String signalsProvider) {
        super(keyFields);
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        if (virtualWorkersPerWorker <= 0) {
            throw new IllegalArgumentException("virtualWorkersPerWorker must be positive, got " + virtualWorkersPerWorker);
        }
        this.epsilon = epsilon;
        this.virtualWorkersPerWorker = virtualWorkersPerWorker;
        this.policy = new DelegationPolicy(idleBelow, busyAbove, timeSlotMillis);
        this.signalsProvider = signalsProvider == null || signalsProvider.isBlank()
                ? MetricsPlaneLoadSignals.class.getName() : signalsProvider;
    }

    @Override
    protected KeyRouter createRouter(EdgeContext edge, int sourceTask) {
        signals = instantiate(signalsProvider).open(new SignalEdge(edge.channelName(), policy, edge.topologyId(),
                edge.targetComponent(), edge.targetTasks(), edge.conf()));
        cg = new ConsistentGrouping(edge.workers(), virtualWorkersPerWorker, epsilon, DEFAULT_SEED);
        channel = edge.channelName();
        return cg;
    }

    @Override
    protected void beforeRoute(int sourceTask) {
        for (WorkerSignal signal : signals.poll(sourceTask)) {
            if (signal.worker() < cg.workerCount()) {
                cg.onSignal(signal).ifPresent(move -> LOG.info("CG edge {} source {}: moved VW {} from worker {} to {}",
                        channel, sourceTask, move.virtualWorker(), move.from(), move.to()));
            }
        }
    }

    private static LoadSignalsProvider instantiate(String className) {
        try {
            Class<?> type = Class.forName(className);
            if (!LoadSignalsProvider.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException(className + " does not implement " + LoadSignalsProvider.class.getName());
            }
            return (LoadSignalsProvider) type.getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException | NoSuchMethodException | InstantiationException | IllegalAccessException
                 | InvocationTargetException e) {
            throw new IllegalArgumentException("cannot instantiate load-signals provider " + className
                    + " (needs a public no-arg constructor): " + e, e);
        }
    }
}
