package io.nonstopstorm.grouping.signal;

import java.util.List;

/**
 * The path load signals travel on, from the workers of one stream edge to its sources.
 *
 * <p>The paper piggybacks signals on acknowledgements. Storm's acks carry no payload, so the path is
 * an interface: the simulator delivers signals directly (immediately, or when the worker next
 * acknowledges a message of that source); in Storm an implementation can carry them through the
 * metrics plane / ZooKeeper or a control stream. Whatever the path, sources only need to be
 * eventually consistent: a signal may reach sources at different times, or late.
 *
 * <p>Implementations used from several threads (Storm) must be thread-safe.
 */
public interface LoadSignals {

    /** Worker side: worker {@code worker} sends {@code signal} to every source. */
    void publish(int worker, LoadSignal signal);

    /** Source side: the signals that have reached source {@code source} since its last poll, oldest first. */
    List<WorkerSignal> poll(int source);
}
