package io.nonstopstorm.grouping.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Which worker owns each virtual worker (VW). Starts with {@code perWorker} VWs on every worker;
 * moves are the only change, so the number of VWs is conserved. A worker gives up the VW it
 * received last (LIFO), so a VW just probed onto a worker is the first to go back.
 */
public final class VirtualWorkerTable {
    private final int[] owner;
    private final List<ArrayDeque<Integer>> owned;

    public VirtualWorkerTable(int workers, int perWorker) {
        Checks.positive("workers", workers);
        Checks.positive("virtual workers per worker", perWorker);
        this.owner = new int[workers * perWorker];
        this.owned = new ArrayList<>(workers);
        for (int w = 0; w < workers; w++) {
            ArrayDeque<Integer> mine = new ArrayDeque<>();
            for (int i = 0; i < perWorker; i++) {
                int vw = w * perWorker + i;
                owner[vw] = w;
                mine.addLast(vw);
            }
            owned.add(mine);
        }
    }

    public int workers() {
        return owned.size();
    }

    public int virtualWorkers() {
        return owner.length;
    }

    public int ownerOf(int virtualWorker) {
        return owner[virtualWorker];
    }

    /** Number of VWs the worker owns now. */
    public int count(int worker) {
        return owned.get(worker).size();
    }

    /** The VWs the worker owns, oldest first. */
    public List<Integer> ownedBy(int worker) {
        return List.copyOf(owned.get(worker));
    }

    /** Moves the most recently received VW of {@code from} to {@code to}. */
    public VirtualWorkerMove moveOne(int from, int to) {
        if (from == to) {
            throw new IllegalArgumentException("cannot move a virtual worker from worker " + from + " to itself");
        }
        ArrayDeque<Integer> source = owned.get(from);
        if (source.size() <= 1) {
            throw new IllegalStateException("worker " + from + " would be left without virtual workers");
        }
        int vw = source.removeLast();
        owned.get(to).addLast(vw);
        owner[vw] = to;
        return new VirtualWorkerMove(vw, from, to);
    }
}
