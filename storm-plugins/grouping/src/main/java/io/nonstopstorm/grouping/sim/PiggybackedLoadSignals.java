package io.nonstopstorm.grouping.sim;

import io.nonstopstorm.grouping.signal.LoadSignal;
import io.nonstopstorm.grouping.signal.LoadSignals;
import io.nonstopstorm.grouping.signal.WorkerSignal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The paper's piggybacking, simulated: a worker's signal waits, per source, until the worker
 * acknowledges (finishes) a message of that source, and only then reaches the source. Sources thus
 * learn at different times, and a source that sends a worker nothing never hears from it.
 */
final class PiggybackedLoadSignals implements LoadSignals {
    private final List<List<ArrayDeque<WorkerSignal>>> pending; // [worker][source]
    private final List<ArrayDeque<WorkerSignal>> inbox;         // [source]

    PiggybackedLoadSignals(int workers, int sources) {
        pending = new ArrayList<>(workers);
        for (int w = 0; w < workers; w++) {
            List<ArrayDeque<WorkerSignal>> perSource = new ArrayList<>(sources);
            for (int s = 0; s < sources; s++) {
                perSource.add(new ArrayDeque<>());
            }
            pending.add(perSource);
        }
        inbox = new ArrayList<>(sources);
        for (int s = 0; s < sources; s++) {
            inbox.add(new ArrayDeque<>());
        }
    }

    @Override
    public void publish(int worker, LoadSignal signal) {
        WorkerSignal message = new WorkerSignal(worker, signal);
        for (ArrayDeque<WorkerSignal> waiting : pending.get(worker)) {
            waiting.addLast(message);
        }
    }

    /** Worker {@code worker} acknowledged a message of {@code source}: its waiting signals ride along. */
    void acknowledged(int worker, int source) {
        ArrayDeque<WorkerSignal> waiting = pending.get(worker).get(source);
        while (!waiting.isEmpty()) {
            inbox.get(source).addLast(waiting.pollFirst());
        }
    }

    @Override
    public List<WorkerSignal> poll(int source) {
        ArrayDeque<WorkerSignal> arrived = inbox.get(source);
        if (arrived.isEmpty()) {
            return List.of();
        }
        List<WorkerSignal> out = new ArrayList<>(arrived);
        arrived.clear();
        return out;
    }
}
