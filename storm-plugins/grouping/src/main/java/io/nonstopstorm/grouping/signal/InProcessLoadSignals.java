package io.nonstopstorm.grouping.signal;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A JVM-wide registry of broadcast signal paths, one per channel name. It works when the sources and
 * the workers of an edge share a JVM (Storm local mode, or a topology in one worker process); across
 * worker processes a provider over ZooKeeper or a control stream is needed instead.
 *
 * <p>Sources open a channel through the grouping; worker bolts get a reporter with
 * {@link #reporter(String, int, long)}, which applies the policy the grouping registered.
 */
public final class InProcessLoadSignals implements LoadSignalsProvider {
    private static final Map<String, Channel> CHANNELS = new ConcurrentHashMap<>();

    /** Public no-arg constructor so that Storm adapters can instantiate it by class name. */
    public InProcessLoadSignals() {
    }

    @Override
    public LoadSignals open(String channel, DelegationPolicy policy) {
        Channel c = channel(channel);
        c.policy = policy;
        return c.signals;
    }

    /**
     * Worker side: a reporter for worker {@code worker} (its index among the edge's sorted target
     * tasks) on {@code channel}. Until a grouping has opened the channel with a policy, reports are
     * ignored.
     */
    public static Reporter reporter(String channel, int worker, long startTime) {
        return new Reporter(channel(channel), worker, startTime);
    }

    /** Forgets every channel (tests, or a local cluster being torn down). */
    public static void clear() {
        CHANNELS.clear();
    }

    private static Channel channel(String name) {
        return CHANNELS.computeIfAbsent(name, n -> new Channel());
    }

    private static final class Channel {
        final BroadcastLoadSignals signals = new BroadcastLoadSignals();
        volatile DelegationPolicy policy;
    }

    /** Reporter bound to a channel whose policy may arrive after the reporter is created. */
    public static final class Reporter {
        private final Channel channel;
        private final int worker;
        private final long startTime;
        private WorkerLoadReporter delegate;

        private Reporter(Channel channel, int worker, long startTime) {
            this.channel = channel;
            this.worker = worker;
            this.startTime = startTime;
        }

        public Optional<LoadSignal> report(long now, double utilisation) {
            if (delegate == null) {
                DelegationPolicy policy = channel.policy;
                if (policy == null) {
                    return Optional.empty();
                }
                delegate = new WorkerLoadReporter(worker, new WorkerDelegate(policy, startTime), channel.signals);
            }
            return delegate.report(now, utilisation);
        }
    }
}
