package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.signal.LoadSignal;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Optional;

/**
 * Pairs removals with additions of virtual workers through two first-come-first-served queues of
 * workers, idle and busy (each worker at most once per queue). A busy worker loses a VW only when an
 * idle worker is there to take it, so the VW count never changes.
 *
 * <p>Choices where the paper is silent: a worker's latest signal supersedes an older opposite one
 * (a DECREASE removes the worker from the idle queue, and vice versa); a worker never gives up its
 * last VW, so a busy worker with one VW is neither queued nor paired.
 */
public final class PairingQueues {
    private final VirtualWorkerTable table;
    private final LinkedHashSet<Integer> idle = new LinkedHashSet<>();
    private final LinkedHashSet<Integer> busy = new LinkedHashSet<>();

    public PairingQueues(VirtualWorkerTable table) {
        this.table = table;
    }

    /** Applies one signal; returns the move it paired up, if any. */
    public Optional<VirtualWorkerMove> apply(int worker, LoadSignal signal) {
        if (worker < 0 || worker >= table.workers()) {
            throw new IllegalArgumentException("worker index " + worker + " outside [0, " + table.workers() + ")");
        }
        return switch (signal) {
            case DECREASE -> onDecrease(worker);
            case INCREASE -> onIncrease(worker);
        };
    }

    private Optional<VirtualWorkerMove> onDecrease(int busyWorker) {
        idle.remove(busyWorker);
        if (table.count(busyWorker) <= 1) {
            return Optional.empty();
        }
        Integer idleWorker = pollFirst(idle);
        if (idleWorker == null) {
            busy.add(busyWorker);
            return Optional.empty();
        }
        return Optional.of(table.moveOne(busyWorker, idleWorker));
    }

    private Optional<VirtualWorkerMove> onIncrease(int idleWorker) {
        busy.remove(idleWorker);
        Integer busyWorker;
        while ((busyWorker = pollFirst(busy)) != null) {
            if (table.count(busyWorker) > 1) {
                return Optional.of(table.moveOne(busyWorker, idleWorker));
            }
        }
        idle.add(idleWorker);
        return Optional.empty();
    }

    public boolean isIdleQueued(int worker) {
        return idle.contains(worker);
    }

    public boolean isBusyQueued(int worker) {
        return busy.contains(worker);
    }

    private static Integer pollFirst(LinkedHashSet<Integer> queue) {
        Iterator<Integer> it = queue.iterator();
        if (!it.hasNext()) {
            return null;
        }
        Integer first = it.next();
        it.remove();
        return first;
    }
}
