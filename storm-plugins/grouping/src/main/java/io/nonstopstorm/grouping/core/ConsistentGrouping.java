package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.signal.LoadSignal;
import io.nonstopstorm.grouping.signal.WorkerSignal;

import java.util.Optional;

/**
 * CG, the source side: PoRC spreads keys over equal-sized virtual workers (VWs); a table maps VWs to
 * workers; load signals from workers move VWs between workers by pairing busy with idle workers.
 *
 * <p>Each source holds its own instance. Sources that see the same messages and the same signals in
 * the same order route identically; with signals arriving at different times (piggybacked on acks)
 * they diverge for a while and are eventually consistent, which the paper accepts. No state moves
 * with a VW: queued messages are processed where they are, and partial per-key state is merged by
 * periodic aggregation downstream.
 */
public final class ConsistentGrouping implements KeyRouter {
    private final PowerOfRandomChoices porc;
    private final VirtualWorkerTable table;
    private final PairingQueues pairing;
    private long moves;

    public ConsistentGrouping(int workers, int virtualWorkersPerWorker, double epsilon, int seed) {
        this.table = new VirtualWorkerTable(workers, virtualWorkersPerWorker);
        this.porc = new PowerOfRandomChoices(table.virtualWorkers(), epsilon, seed);
        this.pairing = new PairingQueues(table);
    }

    @Override
    public int workerCount() {
        return table.workers();
    }

    @Override
    public int route(byte[] key) {
        return table.ownerOf(porc.choose(key));
    }

    /** Reacts to one worker's signal; returns the VW move it caused, if any. */
    public Optional<VirtualWorkerMove> onSignal(WorkerSignal signal) {
        return onSignal(signal.worker(), signal.signal());
    }

    /** Reacts to one worker's signal; returns the VW move it caused, if any. */
    public Optional<VirtualWorkerMove> onSignal(int worker, LoadSignal signal) {
        Optional<VirtualWorkerMove> move = pairing.apply(worker, signal);
        if (move.isPresent()) {
            moves++;
        }
        return move;
    }

    /** Number of VWs the worker owns in this source's view. */
    public int virtualWorkersOf(int worker) {
        return table.count(worker);
    }

    public int virtualWorkers() {
        return table.virtualWorkers();
    }

    /** VW moves this source has made. */
    public long moves() {
        return moves;
    }

    /** Read-only view for observers (tests, simulator): the VW table. */
    public VirtualWorkerTable table() {
        return table;
    }

    /** Read-only view for observers: the PoRC layer. */
    public PowerOfRandomChoices porc() {
        return porc;
    }
}
